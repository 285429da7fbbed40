import { ACTION_SCHEMA_MAX_BYTES, Problem } from "@fleet/contracts";
import { z } from "zod";

/** Nesting a gate's action schema may have: tool argument schemas are shallow. */
const SCHEMA_MAX_DEPTH = 32;

function depthOf(value: unknown, depth = 0): number {
  if (depth > SCHEMA_MAX_DEPTH || value === null || typeof value !== "object") return depth;
  let deepest = depth;
  for (const item of Object.values(value)) deepest = Math.max(deepest, depthOf(item, depth + 1));
  return deepest;
}

function invalid(detail: string): Problem {
  return new Problem("UZ-APPROVAL-002", { detail });
}

/** The validator of a JSON Schema (zod 4's `fromJSONSchema`); a schema it cannot read is a 400. */
function validatorOf(schema: Record<string, unknown>): z.ZodType {
  try {
    return z.fromJSONSchema(schema as z.core.JSONSchema.JSONSchema);
  } catch (error) {
    throw invalid(`action_schema is not a JSON Schema this service can read: ${(error as Error).message}`);
  }
}

/** Checks a runner's `action_schema` as it opens a gate: bounded, shallow, and readable. */
export function checkActionSchema(schema: Record<string, unknown>): void {
  const bytes = Buffer.byteLength(JSON.stringify(schema));
  if (bytes > ACTION_SCHEMA_MAX_BYTES) {
    throw new Problem("UZ-REQ-006", {
      detail: `action_schema is ${bytes} bytes as JSON; a gate holds at most ${ACTION_SCHEMA_MAX_BYTES}.`,
    });
  }
  if (depthOf(schema) > SCHEMA_MAX_DEPTH) {
    throw invalid(`action_schema nests deeper than ${SCHEMA_MAX_DEPTH} levels.`);
  }
  validatorOf(schema);
}

/**
 * Checks an approver's `amended_action` against the gate's action schema: `<tool> <arguments as JSON>`,
 * the same tool as proposed, arguments that conform. Refused 400 UZ-APPROVAL-002 naming the fault; the
 * gate stays pending.
 */
export function checkAmendedAction(
  gate: { toolName: string; actionSchema: Record<string, unknown> | null },
  amended: string,
): void {
  if (gate.actionSchema === null) return;
  const space = amended.indexOf(" ");
  const tool = space < 0 ? amended : amended.slice(0, space);
  if (tool !== gate.toolName) {
    throw invalid(
      `amended_action must be "${gate.toolName} <arguments as JSON>": the same tool as proposed, then its arguments.`,
    );
  }
  let args: unknown;
  try {
    args = JSON.parse(amended.slice(space + 1));
  } catch {
    throw invalid(`amended_action's arguments (after "${gate.toolName} ") are not valid JSON.`);
  }
  const checked = validatorOf(gate.actionSchema).safeParse(args);
  if (!checked.success) {
    const issue = checked.error.issues[0]!;
    const at = issue.path.length === 0 ? "the arguments" : `arguments.${issue.path.join(".")}`;
    throw invalid(`amended_action does not fit ${gate.toolName}'s arguments: ${at}: ${issue.message}.`);
  }
}
