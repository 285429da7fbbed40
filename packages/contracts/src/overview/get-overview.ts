import { defineOperation, tenantCredentials } from "../operation.ts";
import { workspaceParam } from "../workspaces/workspace-param.ts";
import { overview } from "./overview.ts";

export const getOverview = defineOperation({
  id: "overview.get",
  method: "GET",
  path: "/v1/workspaces/{workspace_id}/overview",
  summary: "Read a workspace's overview",
  description:
    "What needs a person now, in one read: pending approval gates (oldest first), events waiting for a runner with how long and why, the platform's runners counted by liveness and admin state, runs that failed in the last 24 hours, schedules whose sync failed, and (with billing:read) this workspace's spend since UTC midnight. Each list holds the first 10 of its panel; each total stops at 1000.",
  tags: ["Overview"],
  scope: "fleet:read",
  credentials: tenantCredentials,
  successStatus: 200,
  params: workspaceParam,
  output: overview,
});
