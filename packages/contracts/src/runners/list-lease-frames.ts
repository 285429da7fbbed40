import { cursorParam, queryInt, uuidv7 } from "../common.ts";
import { runFramePage } from "../fleet-events/stream-frame.ts";
import { defineOperation } from "../operation.ts";
import { runnerIdParam } from "./runner.ts";

export const listLeaseFrames = defineOperation({
  id: "runners.listLeaseFrames",
  method: "GET",
  path: "/v1/fleets/runners/{id}/leases/{lease_id}/frames",
  summary: "List the frames a lease's run published",
  description:
    "Oldest first, in the order the live tail sent them; limit defaults to 100 and is refused above 200. " +
    "A lease keeps its first 2,000 frames for `retention_hours` (FLEET_RUN_FRAMES_RETENTION_HOURS). " +
    "Never a request body.",
  tags: ["Runners"],
  scope: "runner:read",
  credentials: ["operator"],
  successStatus: 200,
  params: { ...runnerIdParam, lease_id: uuidv7("lease_id") },
  query: { starting_after: cursorParam.optional(), limit: queryInt("limit", 1, 200).default(100) },
  output: runFramePage,
});
