import { defineOperation, tenantCredentials } from "../operation.ts";
import { workspaceParam } from "../workspaces/workspace-param.ts";
import { providerParam } from "./connector.ts";
import { channelParam, connectorRoute, routeBody } from "./connector-route.ts";

export const setRoute = defineOperation({
  id: "connectors.setRoute",
  method: "PUT",
  path: "/v1/workspaces/{workspace_id}/connectors/{provider}/routes/{channel_id}",
  summary: "Route a channel to a fleet",
  description:
    "Messages to the app in this channel become chat events of the fleet (one fleet per channel; a PUT replaces the channel's fleet). The provider must be connected in the workspace (400 UZ-CONN-001 otherwise); the fleet must be the workspace's (404 UZ-FLEET-001).",
  tags: ["Connectors"],
  scope: "connector:write",
  credentials: tenantCredentials,
  successStatus: 200,
  params: { ...workspaceParam, ...providerParam, ...channelParam },
  body: routeBody,
  output: connectorRoute,
});
