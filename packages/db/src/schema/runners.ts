import type { AssignedPolicy, CapabilityReport } from "@fleet/contracts";
import { sql } from "drizzle-orm";
import { bigint, boolean, check, index, jsonb, pgTable, text, uniqueIndex, uuid } from "drizzle-orm/pg-core";

// The policy an operator assigns and what a host reports it can enforce: shapes of the contracts.
export type { AssignedPolicy, CapabilityReport } from "@fleet/contracts";

/** The contracts' runner admin states; the check constraint below keeps the column to them. */
export type RunnerAdminState = "active" | "cordoned" | "draining" | "revoked";

/** Execution hosts that lease fleets' work under a runner token. */
export const runners = pgTable(
  "runners",
  {
    id: uuid("id").primaryKey(),
    hostId: text("host_id").notNull(),
    /** Hex SHA-256 of the runner token (`agt_r…`). */
    tokenHash: text("token_hash").notNull(),
    labels: jsonb("labels").$type<string[]>().notNull().default(sql`'[]'::jsonb`),
    /** Null for a host enrolled before policies existed: it reads as degraded until one is assigned. */
    assignedPolicy: jsonb("assigned_policy").$type<AssignedPolicy>(),
    /** `drained` is derived on read: a draining runner with no live lease. */
    adminState: text("admin_state").$type<RunnerAdminState>().notNull().default("active"),
    capabilityReport: jsonb("capability_report").$type<CapabilityReport>(),
    degraded: boolean("degraded").notNull().default(false),
    degradedReason: text("degraded_reason"),
    lastHeartbeatAt: bigint("last_heartbeat_at", { mode: "number" }),
    /**
     * When the offline sweep found the runner quiet (its last heartbeat and the online window), until its
     * next heartbeat clears it: the sweep marks each lapse once, and tells the workspaces it served.
     */
    offlineAt: bigint("offline_at", { mode: "number" }),
    createdAt: bigint("created_at", { mode: "number" }).notNull(),
    updatedAt: bigint("updated_at", { mode: "number" }).notNull().default(0),
    revokedAt: bigint("revoked_at", { mode: "number" }),
  },
  (t) => [
    uniqueIndex("runners_token_hash_key").on(t.tokenHash),
    index("runners_page_idx").on(t.createdAt, t.id),
    // The offline sweep's walk: live runners not yet marked, by their last heartbeat.
    index("runners_unmarked_heartbeat_idx")
      .on(t.lastHeartbeatAt)
      .where(sql`${t.offlineAt} is null and ${t.revokedAt} is null`),
    check("runners_admin_state", sql`${t.adminState} in ('active', 'cordoned', 'draining', 'revoked')`),
  ],
);
