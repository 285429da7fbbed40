import {
  ACTION_SCHEMA_MAX_DEPTH,
  actionSchemaFault,
  actionSchemaValidator,
  jsonDepth,
  Problem,
} from "@fleet/contracts";
import type { z } from "zod";
import { OUT_OF_TIME, timeBoxed } from "../../runtime/time-box.ts";

/**
 * How long checking one edit against a gate's schema may take. The schema comes from a runner, which may
 * relay it from a third party (an MCP server's tool): a `pattern` that backtracks catastrophically on the
 * approver's arguments is stopped here rather than holding the answer's transaction.
 */
export const AMENDED_CHECK_MS = 100;

function invalid(detail: string): Problem {
  return new Problem("UZ-APPROVAL-002", { detail });
}

/** Checks a runner's `action_schema` as it opens a gate: bounded, shallow, and readable. */
export function checkActionSchema(schema: Record<string, unknown>): void {
  const fault = actionSchemaFault(schema);
  if (fault !== null)
    throw new Problem(fault.tooLarge ? "UZ-REQ-006" : "UZ-APPROVAL-002", { detail: fault.detail });
}

/** The arguments checked against the schema, in bounded time: the first issue, or why they cannot be. */
function argumentsFault(schema: Record<string, unknown>, args: unknown): string | null {
  if (jsonDepth(args) > ACTION_SCHEMA_MAX_DEPTH)
    return `the arguments nest deeper than ${ACTION_SCHEMA_MAX_DEPTH} levels`;
  let checked: z.ZodSafeParseResult<unknown> | typeof OUT_OF_TIME;
  try {
    checked = timeBoxed(() => actionSchemaValidator(schema).safeParse(args), AMENDED_CHECK_MS);
  } catch (error) {
    // A schema that refers to itself without end ({"$ref": "#"}) recurses until the stack runs out.
    if (error instanceof RangeError)
      return "the tool's schema cannot be checked (it refers to itself without end)";
    throw error;
  }
  if (checked === OUT_OF_TIME)
    return `checking the arguments against the tool's schema took longer than ${AMENDED_CHECK_MS} ms (a pattern of the schema); approve the action as proposed, or deny it`;
  if (checked.success) return null;
  const issue = checked.error.issues[0]!;
  const at = issue.path.length === 0 ? "the arguments" : `arguments.${issue.path.join(".")}`;
  return `${at}: ${issue.message}`;
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
  const fault = argumentsFault(gate.actionSchema, args);
  if (fault !== null) throw invalid(`amended_action does not fit ${gate.toolName}'s arguments: ${fault}.`);
}
