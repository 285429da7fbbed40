import { z } from "zod";
import { cursorParam, epochMs, queryInt, uuidv7 } from "../common.ts";
import { streamFrameKinds } from "../fleet-events/stream-frame.ts";
import { defineOperation } from "../operation.ts";
import { runnerIdParam } from "./runner.ts";

/** One frame a run published, as its live tail sent it, with the lease that published it. */
export const runFrame = z
  .object({
    frame_id: z.string(),
    /** The lease that published it (a run leased again has frames of several). */
    lease_id: z.string(),
    kind: z.enum(streamFrameKinds),
    at: epochMs,
    payload: z.record(z.string(), z.unknown()),
  })
  .meta({ id: "RunFrame" });

/** A page of kept run frames, oldest first. */
export const runFramePage = z
  .object({
    items: z.array(runFrame),
    next_cursor: z.string().nullable(),
    /** How long frames are kept, so a reader can say why an old run shows none. */
    retention_hours: z.number().int(),
  })
  .meta({ id: "RunFramePage" });

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
