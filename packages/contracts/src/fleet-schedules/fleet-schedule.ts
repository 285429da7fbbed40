import { z } from "zod";
import { uuidv7 } from "../common.ts";
import { fencingToken, leaseIdParam } from "../leases/lease.ts";

/** What the fleet's own schedule routes share: runner tokens, fenced by the lease. */
export const runnerSchedule = {
  scope: null,
  credentials: ["runner"] as const,
  tags: ["Runner self"],
};
export const scheduleOfLease = { ...leaseIdParam, schedule_id: uuidv7("schedule_id") };
export const fencingQuery = z.preprocess(
  (value) => (typeof value === "string" && /^\d+$/.test(value) ? Number(value) : value),
  fencingToken,
);
