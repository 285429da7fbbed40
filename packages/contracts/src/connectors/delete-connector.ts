import { z } from "zod";
import { defineOperation, tenantCredentials } from "../operation.ts";
import { workspaceParam } from "../workspaces/workspace-param.ts";
import { providerParam } from "./connector.ts";

export const deleteConnector = defineOperation({
  id: "connectors.delete",
  method: "DELETE",
  path: "/v1/workspaces/{workspace_id}/connectors/{provider}",
  summary: "Disconnect a provider from a workspace",
  description:
    "Removes the workspace's connector (its sealed token) and its channel routes. The authorization stays active at the vendor. Idempotent: 204 also when nothing was connected.",
  tags: ["Connectors"],
  scope: "connector:write",
  credentials: tenantCredentials,
  successStatus: 204,
  params: { ...workspaceParam, ...providerParam },
  output: z.void(),
});
