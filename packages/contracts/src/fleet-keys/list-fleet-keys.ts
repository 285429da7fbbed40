import { cursorParam, page, queryInt, uuidv7 } from "../common.ts";
import { defineOperation, tenantCredentials } from "../operation.ts";
import { fleetKeyItem } from "./fleet-key.ts";

export const listFleetKeys = defineOperation({
  id: "fleetKeys.list",
  method: "GET",
  path: "/v1/workspaces/{workspace_id}/fleet-keys",
  summary: "List fleet keys",
  description:
    "The workspace's fleet keys, newest first, cursor-paged: follow next_cursor until it is null. fleet_id narrows the list to one fleet's keys.",
  tags: ["Fleet keys"],
  scope: "fleetkey:read",
  credentials: tenantCredentials,
  successStatus: 200,
  params: { workspace_id: uuidv7("workspace_id") },
  query: {
    fleet_id: uuidv7("fleet_id").optional(),
    starting_after: cursorParam.optional(),
    limit: queryInt("limit", 1, 100).default(50),
  },
  output: page(fleetKeyItem).meta({ id: "FleetKeyPage" }),
});
