import { z } from "zod";
import { defineOperation, tenantCredentials } from "../operation.ts";
import { workspaceParam } from "../workspaces/workspace-param.ts";
import { providerParam } from "./connector.ts";
import { channelParam } from "./connector-route.ts";

export const deleteRoute = defineOperation({
  id: "connectors.deleteRoute",
  method: "DELETE",
  path: "/v1/workspaces/{workspace_id}/connectors/{provider}/routes/{channel_id}",
  summary: "Stop routing a channel",
  description: "Messages in the channel no longer reach a fleet. Idempotent: 204 also when no route was set.",
  tags: ["Connectors"],
  scope: "connector:write",
  credentials: tenantCredentials,
  successStatus: 204,
  params: { ...workspaceParam, ...providerParam, ...channelParam },
  output: z.void(),
});
