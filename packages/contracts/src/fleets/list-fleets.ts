import { cursorParam, page, queryInt } from "../common.ts";
import { defineOperation, tenantCredentials } from "../operation.ts";
import { workspaceParam } from "../workspaces/workspace-param.ts";
import { fleetItem } from "./fleet.ts";

export const listFleets = defineOperation({
  id: "fleets.list",
  method: "GET",
  path: "/v1/workspaces/{workspace_id}/fleets",
  summary: "List a workspace's fleets",
  description: "Newest first, cursor-paged with starting_after; the old name cursor is refused.",
  tags: ["Fleets"],
  scope: "fleet:read",
  credentials: tenantCredentials,
  successStatus: 200,
  params: workspaceParam,
  query: { starting_after: cursorParam.optional(), limit: queryInt("limit", 1, 100).default(50) },
  output: page(fleetItem).meta({ id: "FleetPage" }),
});
