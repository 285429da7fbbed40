import { z } from "zod";
import { epochMs, uuidv7 } from "../common.ts";
import { workspaceParam } from "../workspaces/workspace-param.ts";

/** `pending`, then exactly one terminal status; terminal rows never change. */
export const gateStatuses = ["pending", "approved", "denied", "timed_out", "auto_killed"] as const;
export type GateStatus = (typeof gateStatuses)[number];

/** Default and ceiling of a gate's timeout. */
export const GATE_TIMEOUT_DEFAULT_MS = 60 * 60 * 1000;
export const GATE_TIMEOUT_MAX_MS = 24 * 60 * 60 * 1000;
/** The shortest timeout a runner may ask for. */
export const GATE_TIMEOUT_MIN_MS = 1_000;
/** `evidence`, serialised as JSON, is at most this many bytes (413 UZ-REQ-006 above it). */
export const EVIDENCE_MAX_BYTES = 64 * 1024;
/** A gate's `action_schema` (the JSON Schema of the action's arguments) is at most this many bytes as JSON. */
export const ACTION_SCHEMA_MAX_BYTES = 16 * 1024;

/** `proposed_action` and `amended_action` are at most this many characters. */
export const ACTION_MAX_CHARS = 16 * 1024;

/**
 * The `failure_label` a runner reports on the fleet event of an action its gate did not approve, also
 * handed to it with the gate's answer: a denial, a timeout and a stopped fleet are told apart.
 */
export const gateFailureLabels = {
  denied: "approval_denied",
  timed_out: "approval_timed_out",
  auto_killed: "approval_auto_killed",
} as const;

export const gateParams = { ...workspaceParam, gate_id: uuidv7("gate_id") };

/**
 * A blast radius high by its own words, when no policy rule says: it names production (`prod`,
 * `production`) or calls itself `high` or `critical` (whole words, any case).
 */
const HIGH_BLAST_WORDS = /\b(?:prod|production|high|critical)\b/i;

/** Whether a blast radius reads as high when the gate's rule does not mark it either way. */
export function blastReadsHigh(blastRadius: string): boolean {
  return HIGH_BLAST_WORDS.test(blastRadius);
}

/** One person's approval counted toward a gate's quorum. */
export const gateApproval = z
  .object({
    /** The credential that approved: `user:<id>` or `api_key:<id>`. */
    by: z.string(),
    /** The person it counts for (an API key counts as its creator). */
    user_id: z.string(),
    at: epochMs,
    /**
     * Whether it counts toward the quorum now: false once the person left the tenant, when they joined
     * after the gate opened, or when someone of their invitation family approved first.
     */
    counted: z.boolean(),
  })
  .meta({ id: "ApprovalGateApproval" });
export type GateApproval = z.infer<typeof gateApproval>;

/** A gate as the inbox shows it: the spec's list item, with its status and answer. */
export const approvalGate = z
  .object({
    gate_id: z.string(),
    fleet_id: z.string(),
    workspace_id: z.string(),
    action_id: z.string(),
    /**
     * The fleet event whose run opened the gate, so a gate links to its run; null for a gate the service
     * opens itself (an integration grant's request, which no run carries).
     */
    event_id: z.string().nullable(),
    requested_at: epochMs,
    timeout_at: epochMs,
    updated_at: epochMs,
    fleet_name: z.string(),
    tool_name: z.string(),
    action_name: z.string(),
    gate_kind: z.string(),
    proposed_action: z.string(),
    evidence: z.record(z.string(), z.unknown()),
    blast_radius: z.string(),
    detail: z.string(),
    status: z.enum(gateStatuses),
    /** Who gave the answer: `user:<id>`, `api_key:<id>`, or `system:…`; null while pending. */
    resolved_by: z.string().nullable(),
    resolved_at: epochMs.nullable(),
    reason: z.string().nullable(),
    /** What the approver approved in place of `proposed_action`, when they changed it. */
    amended_action: z.string().nullable(),
    /** The approval policy's rule copied onto the gate when it opened; null: the default. */
    rule: z.string().nullable(),
    /**
     * Whether the blast radius is high, so a one-key approve asks first: the rule's `high_blast` when it
     * says, else whether the blast radius names production or says high or critical. Fixed at opening.
     */
    high_blast: z.boolean(),
    /** Distinct approvals that decide `approved`. */
    required_approvals: z.number().int(),
    /** Who has approved so far, oldest first. */
    approvals: z.array(gateApproval),
    /** When the gate escalated (its rule's escalate_at_fraction passed while pending). */
    escalated_at: epochMs.nullable(),
    /** When, by whom and why the deadline was extended (once at most). */
    extended_at: epochMs.nullable(),
    extended_by: z.string().nullable(),
    extension_reason: z.string().nullable(),
  })
  .meta({ id: "ApprovalGate" });
export type ApprovalGate = z.infer<typeof approvalGate>;

/** A gate as its runner reads it: the gate, what to run if approved, and the label to report if not. */
export const runnerGate = approvalGate
  .extend({
    /** `approved`, `denied`, `timed_out`, `auto_killed`; null while pending. */
    outcome: z.enum(gateStatuses).exclude(["pending"]).nullable(),
    /** The action to run: the amended one when the approver changed it; null unless approved. */
    approved_action: z.string().nullable(),
    /** For the fleet event's report when the action is not run (`approval_denied`, …); null otherwise. */
    failure_label: z.string().nullable(),
    /**
     * When a holder of the fleet's lease said it started the approved action (`…/gates/{gate_id}/ran`);
     * null until then. Absent from a service that predates it.
     */
    action_ran_at: epochMs.nullable().optional(),
  })
  .meta({ id: "RunnerApprovalGate" });

/**
 * The answer a vote gets: the decision, or `pending` with the approvals so far while a quorum rule still
 * waits for more (resolved_at and resolved_by null then).
 */
export const gateAnswer = z
  .object({
    gate_id: z.string(),
    action_id: z.string(),
    outcome: z.enum(gateStatuses).exclude(["timed_out", "auto_killed"]),
    resolved_at: epochMs.nullable(),
    resolved_by: z.string().nullable(),
    required_approvals: z.number().int(),
    approvals: z.array(gateApproval),
  })
  .meta({ id: "ApprovalAnswer" });

/** `{reason?}` for a denial; an approval may also carry `amended_action`. */
export const reasonField = z
  .string({ error: "reason must be a string" })
  .max(2000, { error: "reason must be at most 2000 characters" })
  .optional();
