import { z } from "zod";
import { cursorParam, epochMs, queryInt } from "../common.ts";

/** One row of the audit log. */
export const auditEvent = z
  .object({
    id: z.string(),
    workspace_id: z.string().nullable(),
    actor: z.string(),
    action: z.string(),
    target: z.string(),
    /** The server's own id of the request that made the change (its answer's `X-Request-Id`). */
    request_id: z.string(),
    /** The caller's own `X-Request-Id`, kept beside `request_id`; null when the caller sent none. */
    client_request_id: z.string().nullable(),
    at: epochMs,
    details: z.record(z.string(), z.unknown()),
  })
  .meta({ id: "AuditEvent" });

export const auditPage = z
  .object({ items: z.array(auditEvent), next_cursor: z.string().nullable() })
  .meta({ id: "AuditEventPage" });

const epochQuery = (field: string) => queryInt(field, 0, Number.MAX_SAFE_INTEGER);

/** The filters both audit lists take. */
export const auditQuery = {
  actor: z.string().min(1).max(200, { error: "actor must be at most 200 characters" }).optional(),
  /** Exact, or a prefix when it ends in `*` (`approval.*`). */
  action: z
    .string()
    .min(1)
    .max(100, { error: "action must be at most 100 characters" })
    .regex(/^[a-z_.]+\*?$/, { error: "action must be an action name, or a prefix ending in *" })
    .optional(),
  since: epochQuery("since").optional(),
  until: epochQuery("until").optional(),
  starting_after: cursorParam.optional(),
  limit: queryInt("limit", 1, 200).default(50),
};

export const auditDescription =
  "Newest first, cursor-paged over (at, id): follow next_cursor until it is null. Filters: actor (exact principal, e.g. user:<id>), action (exact, or a prefix ending in *), since and until (epoch ms, inclusive). A cursor is bound to the filters it was issued with.";
