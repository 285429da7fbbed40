/** The longest message a logged error keeps. */
const MESSAGE_MAX = 500;
/** How many causes (or an AggregateError's errors) deep a logged error is followed. */
const CAUSE_DEPTH = 3;
/** The most errors of an AggregateError that are logged. */
const AGGREGATE_MAX = 3;
/** The longest stack a logged error keeps, in frames. */
const STACK_LINES = 12;
/** A stack frame as V8 writes it: `at name (file:line:column)`, `at file:line:column`, `at name (native)`. */
const FRAME = /^\s+at .*(?::\d+:\d+\)?|\(native\)|\(<anonymous>\))$/;

export interface LoggedError {
  type: string;
  message: string;
  code?: string;
  stack?: string;
  cause?: LoggedError;
  errors?: LoggedError[];
}

/**
 * How an error is written to the log (pino's `err` serializer): its type, its code, the first line of
 * its message cut at `MESSAGE_MAX` characters, its stack frames (at most `STACK_LINES`), and its causes.
 * Nothing else of it goes: a failed query's error carries the statement and its parameters (in its
 * message after the first line, in its stack's header, and as fields), which can be a message's body, a
 * key's hash or anything else a caller sent. Pino's own serializer wrote every field, 26 KB a line for one
 * of the gateway's statements under load. A data exception's message quotes the value it refused
 * (`invalid input syntax for type uuid: "…"`): the quote is cut.
 */
export function loggedError(error: unknown, depth = 0): LoggedError {
  if (!(error instanceof Error)) return thrownValue(error);
  const { code } = error as { code?: unknown };
  const logged: LoggedError = { type: typeName(error), message: firstLine(error.message) };
  if (typeof code === "string" || typeof code === "number") {
    logged.code = String(code);
    if (logged.code.startsWith("22")) logged.message = logged.message.replace(/: ".*$/, ': "…"');
  }
  if (typeof error.stack === "string") {
    // Only the frames: the stack's header repeats the message, parameters and all.
    const frames = error.stack
      .slice(error.stack.indexOf(error.message) + error.message.length)
      .split("\n")
      .filter((line) => FRAME.test(line));
    logged.stack = frames.slice(0, STACK_LINES).join("\n");
  }
  if (depth < CAUSE_DEPTH) {
    if (error.cause !== undefined) logged.cause = loggedError(error.cause, depth + 1);
    if (error instanceof AggregateError && Array.isArray(error.errors)) {
      logged.errors = error.errors.slice(0, AGGREGATE_MAX).map((one: unknown) => loggedError(one, depth + 1));
    }
  }
  return logged;
}

/** The error's class (`DrizzleQueryError` names itself only through its constructor). */
function typeName(error: Error): string {
  const name = error.constructor?.name;
  return typeof name === "string" && name !== "" && name !== "Error" ? name : error.name;
}

/**
 * The message's first line; a message that opens a JSON list or object on its own line (a ZodError's
 * issues) is kept whole, its lines joined, as its first line says nothing.
 */
function firstLine(message: string): string {
  const first = message.split("\n", 1)[0] ?? "";
  const line = first.trim() === "[" || first.trim() === "{" ? message.replace(/\s*\n\s*/g, " ") : first;
  return line.length > MESSAGE_MAX ? `${line.slice(0, MESSAGE_MAX)}…` : line;
}

/** Something thrown that is not an Error: its string code and message if it has them, else its kind. */
function thrownValue(value: unknown): LoggedError {
  if (typeof value === "object" && value !== null) {
    const { code, message } = value as { code?: unknown; message?: unknown };
    return {
      type: "object",
      message: typeof message === "string" ? firstLine(message) : "",
      ...(typeof code === "string" ? { code } : {}),
    };
  }
  return { type: typeof value, message: typeof value === "string" ? firstLine(value) : String(value) };
}

/** The part of a pino logger a `logMethod` hook calls (the level's own method). */
type LogCall = (...args: unknown[]) => void;

/**
 * pino's `logMethod` hook. A line logged with an error and nothing after it (`log.error(error)`, or
 * `log.warn({ err })`) takes the error's whole message as its `msg`, a failed statement's parameters
 * included: it gets the first line `loggedError` keeps instead (an `err` that is not an Error too). A line
 * with anything after its first argument (a message, format arguments), or an object with a `msg` of its
 * own, is left as it is; its error still goes through `loggedError`.
 */
export function errorLineOnly(this: unknown, args: unknown[], method: LogCall): void {
  const [first] = args;
  const object =
    first !== null && typeof first === "object" ? (first as { err?: unknown; msg?: unknown }) : null;
  if (args.length !== 1 || object === null || object.msg !== undefined) method.apply(this, args);
  else if (first instanceof Error) method.call(this, { err: first }, loggedError(first).message);
  else if (object.err !== undefined && object.err !== null)
    method.call(this, first, loggedError(object.err).message);
  else method.apply(this, args);
}
