import { z } from "zod";
import { ACTION_SCHEMA_MAX_BYTES } from "./approval-gate.ts";

/**
 * Nesting a gate's `action_schema` may have, and so may an edited action's arguments: tool argument
 * schemas are shallow, and zod's checks recurse.
 */
export const ACTION_SCHEMA_MAX_DEPTH = 32;

/** How deep a JSON value nests, counted no further than one past `ACTION_SCHEMA_MAX_DEPTH`. */
export function jsonDepth(value: unknown, depth = 0): number {
  if (depth > ACTION_SCHEMA_MAX_DEPTH || value === null || typeof value !== "object") return depth;
  let deepest = depth;
  for (const item of Object.values(value)) deepest = Math.max(deepest, jsonDepth(item, depth + 1));
  return deepest;
}

/** The validator of an action schema (zod 4's `fromJSONSchema`); throws when zod cannot read it. */
export function actionSchemaValidator(schema: Record<string, unknown>): z.ZodType {
  return z.fromJSONSchema(schema as z.core.JSONSchema.JSONSchema);
}

/**
 * Why a gate cannot carry `schema` as its `action_schema`, or null when it can: larger than 16 KiB as JSON
 * (`tooLarge`), deeper than 32 levels, or not a JSON Schema zod reads. The service refuses such a gate;
 * a runner checks first, so a tool whose schema does not fit (an MCP server's, say) still gets its gate.
 */
export function actionSchemaFault(
  schema: Record<string, unknown>,
): { detail: string; tooLarge: boolean } | null {
  const bytes = Buffer.byteLength(JSON.stringify(schema));
  if (bytes > ACTION_SCHEMA_MAX_BYTES)
    return {
      tooLarge: true,
      detail: `action_schema is ${bytes} bytes as JSON; a gate holds at most ${ACTION_SCHEMA_MAX_BYTES}.`,
    };
  if (jsonDepth(schema) > ACTION_SCHEMA_MAX_DEPTH)
    return { tooLarge: false, detail: `action_schema nests deeper than ${ACTION_SCHEMA_MAX_DEPTH} levels.` };
  try {
    actionSchemaValidator(schema);
  } catch (error) {
    return {
      tooLarge: false,
      detail: `action_schema is not a JSON Schema this service can read: ${(error as Error).message}`,
    };
  }
  return null;
}
