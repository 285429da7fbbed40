import { defineOperation, tenantCredentials } from "../operation.ts";
import { workspaceParam } from "../workspaces/workspace-param.ts";
import { connectorState, providerParam } from "./connector.ts";

export const getConnector = defineOperation({
  id: "connectors.get",
  method: "GET",
  path: "/v1/workspaces/{workspace_id}/connectors/{provider}",
  summary: "Read a workspace connector's status",
  description:
    "`connected`, `reconnect_required` (the vendor said the token is revoked: connect again), or `not_connected`, with the vendor's team. A connected connector's token is checked with the vendor on this read; a vendor that does not answer leaves the stored status. Never a token.",
  tags: ["Connectors"],
  scope: "connector:read",
  credentials: tenantCredentials,
  successStatus: 200,
  params: { ...workspaceParam, ...providerParam },
  output: connectorState,
});
