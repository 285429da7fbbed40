import { sql } from "drizzle-orm";
import { bigint, index, jsonb, pgTable, text, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { leaseKind, leaseStatus } from "./domains.ts";
import { runners } from "./runners.ts";

/** One secret as it was delivered to a run: its name and its sealed form at delivery. */
export interface DeliveredSealed {
  name: string;
  wrappedKey: string;
  ciphertext: string;
}

/**
 * A runner's hold on one fleet event. `fencing_token` is the fleet's sequence at the claim: every fenced
 * write checks it is still the fleet's current one. `status` is what the service recorded; a `running`
 * lease past `expires_at` reads as expired, and is marked so when the work is handed out again.
 */
export const leases = pgTable(
  "leases",
  {
    id: uuid("id").primaryKey(),
    runnerId: uuid("runner_id")
      .notNull()
      .references(() => runners.id, { onDelete: "cascade" }),
    /** No foreign key: a runner's lease history outlives a deleted fleet (its outcome then reads unknown). */
    fleetId: uuid("fleet_id").notNull(),
    workspaceId: uuid("workspace_id").notNull(),
    /** The event it runs (no foreign key, as for the fleet). */
    eventId: uuid("event_id").notNull(),
    fencingToken: bigint("fencing_token", { mode: "number" }).notNull(),
    /** `fresh` for an event's first lease, `reclaim` when an earlier lease on it expired. */
    kind: leaseKind("kind").notNull(),
    status: leaseStatus("status").notNull(),
    failureLabel: text("failure_label"),
    failureDetail: text("failure_detail"),
    provider: text("provider"),
    model: text("model"),
    posture: text("posture"),
    inputTokens: bigint("input_tokens", { mode: "number" }),
    outputTokens: bigint("output_tokens", { mode: "number" }),
    cachedTokens: bigint("cached_tokens", { mode: "number" }),
    /** What the run has spent so far, as its runner last reported it mid-run (never lowered). */
    usageNanos: bigint("usage_nanos", { mode: "number" }).notNull().default(0),
    /**
     * What the run's model calls through the gateway cost, summed as each is metered; already debited
     * from the fleet, and part of usage_nanos (docs/decisions/model-gateway.md).
     */
    modelNanos: bigint("model_nanos", { mode: "number" }).notNull().default(0),
    /**
     * What the run's model calls now in flight may still cost: each call reserves its worst case at
     * admission (clamped to the budget left) and gives it back when it is charged or fails. Counted only
     * while the lease runs, so a reservation an instance never gave back ends with its lease.
     */
    reservedNanos: bigint("reserved_nanos", { mode: "number" }).notNull().default(0),
    /**
     * The secrets delivered to the run, as the vault held them sealed at each delivery (same wrapped key
     * and ciphertext, bound to the workspace and name): every instance's masker of the run adds their
     * values, so they stay masked once the secret is replaced or deleted. Null when none was delivered.
     */
    deliveredSealed: jsonb("delivered_sealed").$type<DeliveredSealed[]>(),
    createdAt: bigint("created_at", { mode: "number" }).notNull(),
    expiresAt: bigint("expires_at", { mode: "number" }).notNull(),
    endedAt: bigint("ended_at", { mode: "number" }),
  },
  (t) => [
    /** At most one running lease per fleet, whatever the code does. */
    uniqueIndex("leases_one_running_per_fleet").on(t.fleetId).where(sql`${t.status} = 'running'`),
    index("leases_runner_page_idx").on(t.runnerId, t.createdAt, t.id),
    index("leases_event_idx").on(t.eventId),
  ],
);
