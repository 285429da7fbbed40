/**
 * The first PostgreSQL error in `error`'s cause chain whose SQLSTATE matches `codes`, wherever the driver
 * puts it (postgres.js and PGlite wrap differently; drizzle wraps both), with the constraint it names.
 */
export function databaseError(
  error: unknown,
  codes: RegExp,
): { code: string; constraint: string | null } | null {
  for (
    let cause: unknown = error, depth = 0;
    cause !== null && typeof cause === "object" && depth < 5;
    depth++
  ) {
    const record = cause as {
      code?: unknown;
      constraint?: string;
      constraint_name?: string;
      cause?: unknown;
    };
    if (typeof record.code === "string" && codes.test(record.code))
      return { code: record.code, constraint: record.constraint ?? record.constraint_name ?? null };
    cause = record.cause;
  }
  return null;
}

/** PostgreSQL's unique-violation code, wherever the driver puts it. */
export function uniqueViolation(error: unknown, constraint: string): boolean {
  const found = databaseError(error, /^23505$/);
  return found !== null && found.constraint === constraint;
}

/**
 * The constraint a reference refused, wherever the driver puts the error: a row pointing at nothing
 * (23503, foreign_key_violation) or a delete of a row something points at (23001, restrict_violation,
 * which ON DELETE RESTRICT raises). Null when the failure is something else.
 */
export function foreignKeyViolation(error: unknown): string | null {
  const found = databaseError(error, /^(23503|23001)$/);
  return found === null ? null : (found.constraint ?? "");
}

/** What a failed call's error is called, for a report: its code (a network error's), else its name. */
export function errorCode(error: unknown): string {
  const named = error as { name?: string; code?: string; cause?: { code?: string } };
  return named.code ?? named.cause?.code ?? named.name ?? "error";
}
