import { z } from "zod";
import { GRANT_GATE_KIND } from "../integration-grants/integration-grant.ts";
import { fencingToken, leaseIdParam } from "../leases/lease.ts";
import { defineOperation } from "../operation.ts";
import {
  ACTION_MAX_CHARS,
  GATE_TIMEOUT_DEFAULT_MS,
  GATE_TIMEOUT_MAX_MS,
  GATE_TIMEOUT_MIN_MS,
  runnerGate,
} from "./approval-gate.ts";

const text = (field: string, max: number) =>
  z
    .string({ error: `${field} must be a string` })
    .min(1, { error: `${field} must not be empty` })
    .max(max, { error: `${field} must be at most ${max} characters` });

export const openGate = defineOperation({
  id: "approvals.open",
  method: "POST",
  path: "/v1/runners/me/leases/{lease_id}/gates",
  summary: "Open an approval gate",
  description:
    "Holds a proposed action until a person answers it. Fenced: a superseded holder gets 409 UZ-RUN-005. action_id is the runner's own id for the action: sending it again for the same fleet answers the existing gate with 200. evidence is at most 64 KiB as JSON (413 above it); timeout_ms defaults to 1 h, at most 24 h. action_schema (optional, at most 16 KiB as JSON and 32 levels deep): the JSON Schema of the action's arguments, when proposed_action is `<tool> <arguments as JSON>`; an approver's amended_action must then name the same tool with arguments that conform, checked in at most 100 ms (400 UZ-APPROVAL-002 otherwise, or when the check runs out of time); a schema this service cannot read is 400 UZ-APPROVAL-002.",
  tags: ["Runner self"],
  scope: null,
  credentials: ["runner"],
  successStatus: 201,
  otherSuccesses: { 200: "The action_id was already open for this fleet: the existing gate, unchanged." },
  errorStatuses: [409],
  bodyLimit: 128 * 1024,
  params: leaseIdParam,
  body: {
    fencing_token: fencingToken,
    action_id: z.uuid({ error: "action_id must be a UUID" }).toLowerCase(),
    tool_name: text("tool_name", 200),
    action_name: text("action_name", 200),
    gate_kind: z
      .string({ error: "gate_kind must be a string" })
      .regex(/^[a-z][a-z0-9_.-]{0,63}$/, {
        error: "gate_kind must be 1-64 lowercase letters, digits, _ . or -, starting with a letter",
      })
      // A grant's gate is opened by its request, which it decides; a runner's gate of that kind would not.
      .refine((kind) => kind !== GRANT_GATE_KIND, {
        error: `gate_kind ${GRANT_GATE_KIND} is reserved for integration grant requests`,
      }),
    proposed_action: text("proposed_action", ACTION_MAX_CHARS),
    evidence: z.record(z.string(), z.unknown(), { error: "evidence must be a JSON object" }),
    blast_radius: text("blast_radius", 2000),
    detail: text("detail", 4000),
    action_schema: z
      .record(z.string(), z.unknown(), { error: "action_schema must be a JSON Schema object" })
      .optional(),
    timeout_ms: z
      .number({ error: "timeout_ms must be an integer" })
      .int({ error: "timeout_ms must be an integer" })
      .min(GATE_TIMEOUT_MIN_MS, {
        error: `timeout_ms must be from ${GATE_TIMEOUT_MIN_MS} to ${GATE_TIMEOUT_MAX_MS}`,
      })
      .max(GATE_TIMEOUT_MAX_MS, {
        error: `timeout_ms must be from ${GATE_TIMEOUT_MIN_MS} to ${GATE_TIMEOUT_MAX_MS}`,
      })
      .default(GATE_TIMEOUT_DEFAULT_MS),
  },
  output: runnerGate,
});
