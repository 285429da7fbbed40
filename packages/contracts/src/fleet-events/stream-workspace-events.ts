import { defineOperation, tenantCredentials } from "../operation.ts";
import { workspaceParam } from "../workspaces/workspace-param.ts";
import { streamFrame, streamQuery } from "./stream-frame.ts";

export const streamWorkspaceEvents = defineOperation({
  id: "fleetEvents.streamWorkspace",
  method: "GET",
  path: "/v1/workspaces/{workspace_id}/events/stream",
  summary: "Tail a workspace's events live",
  description:
    "Every fleet's frames in the workspace, as Server-Sent Events; the same frames, filters and resume as a fleet's stream.",
  tags: ["Fleet events"],
  scope: "fleet:read",
  credentials: tenantCredentials,
  successStatus: 200,
  stream: true,
  errorStatuses: [503],
  params: workspaceParam,
  query: streamQuery,
  requestHeaders: { last_event_id: streamQuery.last_event_id },
  output: streamFrame,
});
