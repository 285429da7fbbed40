import { defineOperation, tenantCredentials } from "../operation.ts";
import { workspaceParam } from "../workspaces/workspace-param.ts";
import { eventListQuery, fleetEventPage } from "./fleet-event.ts";

export const listWorkspaceEvents = defineOperation({
  id: "fleetEvents.listWorkspace",
  method: "GET",
  path: "/v1/workspaces/{workspace_id}/events",
  summary: "List a workspace's events",
  description:
    "Every fleet's events in the workspace, newest first, up to 200 a page, without bodies; the same filters as a fleet's list.",
  tags: ["Fleet events"],
  scope: "fleet:read",
  credentials: tenantCredentials,
  successStatus: 200,
  params: workspaceParam,
  query: eventListQuery,
  output: fleetEventPage,
});
