import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { tenants } from "./tenants.ts";
import { workspaces } from "./workspaces.ts";

/**
 * A fleet's proposed action held until a person answers it. `pending` moves exactly once to one of
 * `approved`, `denied`, `timed_out`, `auto_killed`; a trigger (migration 0009) refuses any update of a
 * row that has left `pending`, so the first answer stands whatever the code does.
 */
export const approvalGates = pgTable(
  "approval_gates",
  {
    id: uuid("id").primaryKey(),
    tenantId: uuid("tenant_id")
      .notNull()
      .references(() => tenants.id, { onDelete: "cascade" }),
    workspaceId: uuid("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    /** No foreign key: a gate outlives its deleted fleet (it reads `auto_killed`), as leases do. */
    fleetId: uuid("fleet_id").notNull(),
    /** The fleet's name when the gate opened; the inbox shows the current one while the fleet exists. */
    fleetName: text("fleet_name").notNull(),
    /** The runner's own id for the action: repeating it for the fleet finds this gate. */
    actionId: uuid("action_id").notNull(),
    /**
     * The lease and event a runner opened the gate under; both null for a gate the service opens itself
     * (an integration grant's request, which no lease carries).
     */
    leaseId: uuid("lease_id"),
    eventId: uuid("event_id"),
    toolName: text("tool_name").notNull(),
    actionName: text("action_name").notNull(),
    gateKind: text("gate_kind").notNull(),
    proposedAction: text("proposed_action").notNull(),
    evidence: jsonb("evidence").$type<Record<string, unknown>>().notNull(),
    blastRadius: text("blast_radius").notNull(),
    detail: text("detail").notNull(),
    status: text("status").notNull(),
    /**
     * The JSON Schema of the action's arguments, when the runner sent one: an amended action must name the
     * same tool and its arguments conform, checked when the approver answers.
     */
    actionSchema: jsonb("action_schema").$type<Record<string, unknown>>(),
    /**
     * When, and under which lease, a runner started the approved action (set once): a reclaimed run never
     * runs it again, while the lease that started it may repeat the call (a retry) and is told the same.
     */
    actionRanAt: bigint("action_ran_at", { mode: "number" }),
    actionRanLeaseId: uuid("action_ran_lease_id"),
    /** What the approver approved instead of `proposed_action`, when they changed it. */
    amendedAction: text("amended_action"),
    reason: text("reason"),
    /** `user:<id>`, `api_key:<id>`, or `system:timeout` / `system:fleet_<stopped|killed|deleted>`. */
    resolvedBy: text("resolved_by"),
    resolvedAt: bigint("resolved_at", { mode: "number" }),
    requestedAt: bigint("requested_at", { mode: "number" }).notNull(),
    timeoutAt: bigint("timeout_at", { mode: "number" }).notNull(),
    updatedAt: bigint("updated_at", { mode: "number" }).notNull(),
    // The approval policy's rule as it was when the gate opened: a later policy change never alters a
    // pending gate's quorum, approvers, escalation or extension.
    /** The matching rule's name; null when no rule matched (the default: anyone, one approval). */
    ruleName: text("rule_name"),
    /** Distinct people whose approvals decide `approved` (the M of M-of-N). */
    requiredApprovals: integer("required_approvals").notNull().default(1),
    /** User ids who may answer; null: anyone holding `approval:resolve`. */
    approvers: jsonb("approvers").$type<string[]>(),
    /** When the gate escalates if still pending (absolute epoch ms); null: it never does. */
    escalateAt: bigint("escalate_at", { mode: "number" }),
    /** When the sweeper escalated it; set once. */
    escalatedAt: bigint("escalated_at", { mode: "number" }),
    /** User ids who may also answer once escalated. */
    escalationApprovers: jsonb("escalation_approvers").$type<string[]>(),
    /** The most one extension may add to the deadline. */
    maxExtensionMs: bigint("max_extension_ms", { mode: "number" }).notNull().default(3_600_000),
    extendedAt: bigint("extended_at", { mode: "number" }),
    extensionReason: text("extension_reason"),
    /** `user:<id>` or `api_key:<id>`. */
    extendedBy: text("extended_by"),
    /**
     * The person who caused the gate: the message's sender (an API key's creator) or the grant's
     * requester; null when no person did (a schedule, a webhook, a runner).
     */
    causedBy: uuid("caused_by"),
    /** The policy's `allow_self_approval` when the gate opened: whether `caused_by` may approve it. */
    allowSelfApproval: boolean("allow_self_approval").notNull().default(false),
    /** Whether a one-key approve asks first: the rule's `high_blast`, else the blast radius's words. */
    highBlast: boolean("high_blast").notNull().default(false),
  },
  (t) => [
    uniqueIndex("approval_gates_fleet_action_key").on(t.fleetId, t.actionId),
    /** The inbox: a workspace's gates of one status, oldest first, keyset over (requested_at, id). */
    index("approval_gates_inbox_idx").on(t.workspaceId, t.status, t.requestedAt, t.id),
    /** The sweeper's scan: pending gates by deadline. */
    index("approval_gates_pending_deadline_idx").on(t.timeoutAt).where(sql`${t.status} = 'pending'`),
    check(
      "approval_gates_status",
      sql`${t.status} in ('pending', 'approved', 'denied', 'timed_out', 'auto_killed')`,
    ),
    check(
      "approval_gates_resolution",
      sql`(${t.status} = 'pending') = (${t.resolvedAt} is null and ${t.resolvedBy} is null)`,
    ),
    check("approval_gates_amended", sql`${t.amendedAction} is null or ${t.status} = 'approved'`),
    check("approval_gates_deadline", sql`${t.timeoutAt} > ${t.requestedAt}`),
    check("approval_gates_lease_event", sql`(${t.leaseId} is null) = (${t.eventId} is null)`),
    check("approval_gates_quorum", sql`${t.requiredApprovals} between 1 and 10`),
    check(
      "approval_gates_extension",
      sql`(${t.extendedAt} is null) = (${t.extendedBy} is null and ${t.extensionReason} is null)`,
    ),
    /** The sweeper's escalation scan: pending gates not yet escalated, by when they escalate. */
    index("approval_gates_escalation_idx")
      .on(t.escalateAt)
      .where(sql`${t.status} = 'pending' and ${t.escalateAt} is not null and ${t.escalatedAt} is null`),
  ],
);
