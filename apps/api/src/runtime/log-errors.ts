/** The longest message a logged error keeps. */
const MESSAGE_MAX = 500;
/** How many causes deep a logged error is followed. */
const CAUSE_DEPTH = 3;
/** The longest stack a logged error keeps, in lines. */
const STACK_LINES = 12;

export interface LoggedError {
  type: string;
  message: string;
  code?: string;
  stack?: string;
  cause?: LoggedError;
}

/**
 * How an error is written to the log (pino's `err` serializer): its type, its code, the first line of
 * its message cut at `MESSAGE_MAX` characters, a short stack, and its causes. Nothing else of it goes:
 * a failed query's error carries the statement and its parameters (in its message after the first line,
 * and as fields), which can be a message's body or anything else a caller sent. Pino's own serializer
 * wrote every field, 26 KB a line for one of the gateway's statements under load.
 */
export function loggedError(error: unknown, depth = 0): LoggedError {
  if (!(error instanceof Error)) return { type: typeof error, message: short(String(error)) };
  const { code } = error as { code?: unknown };
  const logged: LoggedError = { type: error.name, message: short(error.message) };
  if (typeof code === "string" || typeof code === "number") logged.code = String(code);
  if (error.stack !== undefined) {
    const frames = error.stack.split("\n").filter((line) => line.trimStart().startsWith("at "));
    logged.stack = frames.slice(0, STACK_LINES).join("\n");
  }
  if (error.cause !== undefined && depth < CAUSE_DEPTH) logged.cause = loggedError(error.cause, depth + 1);
  return logged;
}

function short(message: string): string {
  const line = message.split("\n", 1)[0] ?? "";
  return line.length > MESSAGE_MAX ? `${line.slice(0, MESSAGE_MAX)}…` : line;
}
