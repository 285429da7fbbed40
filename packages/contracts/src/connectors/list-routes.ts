import { z } from "zod";
import { defineOperation, tenantCredentials } from "../operation.ts";
import { workspaceParam } from "../workspaces/workspace-param.ts";
import { providerParam } from "./connector.ts";
import { connectorRoute } from "./connector-route.ts";

export const listRoutes = defineOperation({
  id: "connectors.listRoutes",
  method: "GET",
  path: "/v1/workspaces/{workspace_id}/connectors/{provider}/routes",
  summary: "List a connector's channel routes",
  description:
    "Which fleet answers in which channel, oldest first. Empty when the provider is not connected.",
  tags: ["Connectors"],
  scope: "connector:read",
  credentials: tenantCredentials,
  successStatus: 200,
  params: { ...workspaceParam, ...providerParam },
  output: z.object({ items: z.array(connectorRoute) }).meta({ id: "ConnectorRoutes" }),
});
