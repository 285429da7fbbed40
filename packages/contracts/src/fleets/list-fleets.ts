import { z } from "zod";
import { cursorParam, page, queryInt, tagSet } from "../common.ts";
import { defineOperation, tenantCredentials } from "../operation.ts";
import { workspaceParam } from "../workspaces/workspace-param.ts";
import { fleetItem, fleetStatuses } from "./fleet.ts";

export const listFleets = defineOperation({
  id: "fleets.list",
  method: "GET",
  path: "/v1/workspaces/{workspace_id}/fleets",
  summary: "List a workspace's fleets",
  description:
    "Newest first, cursor-paged with starting_after; the old name cursor is refused. status is a comma-separated set (a union; an unrecognised value answers 400); name matches names containing it, ignoring case. total counts the filtered set; a cursor is bound to its filters.",
  tags: ["Fleets"],
  scope: "fleet:read",
  credentials: tenantCredentials,
  successStatus: 200,
  params: workspaceParam,
  query: {
    starting_after: cursorParam.optional(),
    limit: queryInt("limit", 1, 100).default(50),
    status: tagSet("status", fleetStatuses).optional(),
    name: z
      .string()
      .trim()
      .min(1, { error: "name must not be empty" })
      .max(100, { error: "name must be at most 100 characters" })
      .optional(),
  },
  output: page(fleetItem).meta({ id: "FleetPage" }),
});
