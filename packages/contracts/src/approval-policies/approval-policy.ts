import { z } from "zod";
import {
  GATE_TIMEOUT_DEFAULT_MS,
  GATE_TIMEOUT_MAX_MS,
  GATE_TIMEOUT_MIN_MS,
} from "../approvals/approval-gate.ts";
import { epochMs, uuidv7 } from "../common.ts";

/** Ceilings of a policy: rules, names in a list, match values. */
export const POLICY_MAX_RULES = 100;
export const POLICY_MAX_PEOPLE = 100;
export const POLICY_MAX_MATCH_VALUES = 50;
/** The most approvals a rule may require. */
export const QUORUM_MAX = 10;
/** What one extension may add when the rule does not say. */
export const EXTENSION_DEFAULT_MS = GATE_TIMEOUT_DEFAULT_MS;

const ms = (field: string, min: number, max: number) =>
  z
    .number({ error: `${field} must be an integer` })
    .int({ error: `${field} must be an integer` })
    .min(min, { error: `${field} must be from ${min} to ${max}` })
    .max(max, { error: `${field} must be from ${min} to ${max}` });

const people = (field: string) =>
  z
    .array(uuidv7(`${field}[]`), { error: `${field} must be an array of user ids` })
    .min(1, { error: `${field} must name at least one person` })
    .max(POLICY_MAX_PEOPLE, { error: `${field} names at most ${POLICY_MAX_PEOPLE} people` })
    .refine((ids) => new Set(ids).size === ids.length, { error: `${field} names a person twice` });

const values = (field: string, item: z.ZodString) =>
  z
    .array(item, { error: `${field} must be an array of strings` })
    .min(1, { error: `${field} must hold at least one value (leave it out to match any)` })
    .max(POLICY_MAX_MATCH_VALUES, { error: `${field} holds at most ${POLICY_MAX_MATCH_VALUES} values` });

/**
 * One rule. A gate matches when every list given holds its value (a missing list matches anything), and
 * the first matching rule in order applies.
 */
export const approvalRule = z
  .strictObject(
    {
      name: z.string({ error: "name must be a string" }).regex(/^[A-Za-z0-9][A-Za-z0-9 _.-]{0,63}$/, {
        error: "name must be 1-64 letters, digits, spaces, _ . or -, starting with a letter or digit",
      }),
      match: z.strictObject(
        {
          gate_kinds: values(
            "match.gate_kinds",
            z.string({ error: "match.gate_kinds[] must be a string" }).regex(/^[a-z][a-z0-9_.-]{0,63}$/, {
              error: "match.gate_kinds[] must be a gate_kind (1-64 lowercase letters, digits, _ . or -)",
            }),
          ).optional(),
          blast_radius: values(
            "match.blast_radius",
            z
              .string({ error: "match.blast_radius[] must be a string" })
              .min(1, { error: "match.blast_radius[] must not be empty" })
              .max(2000, { error: "match.blast_radius[] must be at most 2000 characters" }),
          ).optional(),
        },
        { error: "match must be an object of gate_kinds and blast_radius" },
      ),
      /** Who may answer (they also need approval:resolve); absent: anyone holding that scope. */
      approvers: people("approvers").optional(),
      required_approvals: z
        .number({ error: "required_approvals must be an integer" })
        .int({ error: "required_approvals must be an integer" })
        .min(1, { error: `required_approvals must be from 1 to ${QUORUM_MAX}` })
        .max(QUORUM_MAX, { error: `required_approvals must be from 1 to ${QUORUM_MAX}` })
        .default(1),
      /** Replaces the runner's timeout when given. */
      timeout_ms: ms("timeout_ms", GATE_TIMEOUT_MIN_MS, GATE_TIMEOUT_MAX_MS).optional(),
      /** The most one extension may add; default 1 h; 0 allows none. */
      max_extension_ms: ms("max_extension_ms", 0, GATE_TIMEOUT_MAX_MS).optional(),
      /** At this fraction of the timeout a still-pending gate escalates. */
      escalate_at_fraction: z
        .number({ error: "escalate_at_fraction must be a number" })
        .gt(0, { error: "escalate_at_fraction must be above 0 and below 1" })
        .lt(1, { error: "escalate_at_fraction must be above 0 and below 1" })
        .optional(),
      /** Who may also answer once the gate escalated. */
      escalation_approvers: people("escalation_approvers").optional(),
      /**
       * Marks the gates it matches as high (true) or not (false) blast radius, whatever their words say;
       * absent: the blast radius's own words decide (see `blastReadsHigh`).
       */
      high_blast: z.boolean({ error: "high_blast must be true or false" }).optional(),
    },
    { error: "each rule must be an object" },
  )
  .meta({ id: "ApprovalRule" });
export type ApprovalRule = z.infer<typeof approvalRule>;

export const approvalRules = z
  .array(approvalRule, { error: "rules must be an array" })
  .max(POLICY_MAX_RULES, { error: `rules holds at most ${POLICY_MAX_RULES} rules` });

export const escalationWebhookUrl = z
  .string({ error: "escalation_webhook_url must be a string or null" })
  .min(1, { error: "escalation_webhook_url must not be empty" })
  .max(2048, { error: "escalation_webhook_url must be at most 2048 characters" })
  .nullable();

/** Absent on PUT: false, so the person who caused a gate never approves it. */
export const allowSelfApproval = z
  .boolean({ error: "allow_self_approval must be true or false" })
  .optional()
  .default(false);

/** The policy as stored and read back; a never-set policy reads with no rules and null times. */
export const approvalPolicy = z
  .object({
    workspace_id: z.string(),
    rules: z.array(approvalRule),
    escalation_webhook_url: z.string().nullable(),
    /** Whether the person who caused a gate (the message's sender, the grant's requester) may approve it. */
    allow_self_approval: z.boolean(),
    updated_at: epochMs.nullable(),
    updated_by: z.string().nullable(),
  })
  .meta({ id: "ApprovalPolicy" });
export type ApprovalPolicy = z.infer<typeof approvalPolicy>;
