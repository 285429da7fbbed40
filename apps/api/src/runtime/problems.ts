import { Problem } from "@fleet/contracts";
import { TRPCError } from "@trpc/server";

interface Issue {
  code?: string;
  path?: ReadonlyArray<PropertyKey | { key: PropertyKey }>;
  message: string;
  input?: unknown;
  keys?: string[];
}

function issuesOf(value: unknown): Issue[] | null {
  const issues = (value as { issues?: unknown } | null | undefined)?.issues;
  return Array.isArray(issues) && issues.length > 0 ? (issues as Issue[]) : null;
}

function fieldPath(issue: Issue): string {
  return (issue.path ?? []).map((part) => String(typeof part === "object" ? part.key : part)).join(".");
}

/** One sentence naming the field that failed, from the first validation issue. */
export function describeIssue(issue: Issue): string {
  const field = fieldPath(issue);
  if (issue.code === "unrecognized_keys" && issue.keys) {
    const where = field ? ` in ${field}` : "";
    return `Unknown field${issue.keys.length > 1 ? "s" : ""}${where}: ${issue.keys.join(", ")}.`;
  }
  if (issue.code === "invalid_type" && issue.input === undefined && field) return `${field} is required.`;
  if (!field) return `The body ${issue.message.replace(/^Invalid input: /, "")}.`;
  // Messages written in the contracts already name their field.
  return issue.message.startsWith(field) ? `${issue.message}.` : `${field}: ${issue.message}.`;
}

const statusProblems: Record<number, ConstructorParameters<typeof Problem>[0]> = {
  400: "UZ-REQ-002",
  404: "UZ-REQ-004",
  405: "UZ-REQ-005",
  413: "UZ-REQ-006",
  415: "UZ-REQ-003",
  431: "UZ-REQ-007",
};

/** Whether a failure is the database (or another dependency) being out of reach, not a defect. */
function unreachable(error: unknown): boolean {
  for (let cause = error, depth = 0; cause && typeof cause === "object" && depth < 5; depth++) {
    const { code, message } = cause as { code?: unknown; message?: unknown };
    if (typeof code === "string") {
      if (
        /^(ECONNREFUSED|ECONNRESET|ETIMEDOUT|EPIPE|CONNECTION_(CLOSED|ENDED|DESTROYED)|CONNECT_TIMEOUT|POOL_TIMEOUT)$/.test(
          code,
        )
      )
        return true;
      // Connection exceptions, shutdowns, and the server's statement and idle-transaction timeouts.
      if (/^(08...|57P0[1-5]|57014|25P03)$/.test(code)) return true;
    }
    if (typeof message === "string" && message === "PGlite is closed") return true;
    cause = (cause as { cause?: unknown }).cause;
  }
  return false;
}

/**
 * A request the database could not serve (out of reach, or no connection came free in time): 503 with
 * `Retry-After: 1`, as the other refusals of a moment carry (docs/decisions/operations.md).
 */
function dependencyDown(): Problem {
  return new Problem("UZ-INTERNAL-002", {
    detail: "The database is unreachable; retry shortly.",
    headers: { "retry-after": "1" },
  });
}

/**
 * Maps anything thrown while answering to the problem it is. Unexpected failures become a 500 whose body
 * says nothing internal; `logError` receives the original.
 */
export function toProblem(error: unknown, logError?: (error: unknown) => void): Problem {
  if (error instanceof Problem) return error;
  if (error instanceof TRPCError) {
    if (error.cause instanceof Problem) return error.cause;
    const issues = issuesOf(error.cause);
    if (error.code === "BAD_REQUEST" && issues)
      return new Problem("UZ-REQ-001", { detail: describeIssue(issues[0]!) });
    // tRPC reports a body that is not JSON as BAD_REQUEST caused by the parser's SyntaxError.
    if (error.code === "PARSE_ERROR" || (error.code === "BAD_REQUEST" && error.cause instanceof SyntaxError))
      return new Problem("UZ-REQ-002", { detail: "The request body is not valid JSON." });
    if (error.code === "NOT_FOUND") return new Problem("UZ-REQ-004", { detail: "No such procedure." });
    if (error.code === "METHOD_NOT_SUPPORTED")
      return new Problem("UZ-REQ-005", { detail: "The procedure does not take this method." });
    if (error.code === "PAYLOAD_TOO_LARGE")
      return new Problem("UZ-REQ-006", { detail: "The request body is too large." });
    if (error.code === "UNSUPPORTED_MEDIA_TYPE")
      return new Problem("UZ-REQ-003", { detail: "The body must be application/json." });
    logError?.(error.cause ?? error);
    return unreachable(error.cause) ? dependencyDown() : internal();
  }
  const framework = error as { statusCode?: number; code?: string; message?: string } | null;
  const status = framework?.statusCode;
  if (
    typeof status === "number" &&
    status >= 400 &&
    status < 500 &&
    typeof framework?.code === "string" &&
    framework.code.startsWith("FST_")
  ) {
    // Fastify's other 400s are bodies it could not parse; a bad path is a malformed parameter.
    const code =
      framework.code === "FST_ERR_BAD_URL" ? "UZ-REQ-001" : (statusProblems[status] ?? "UZ-REQ-001");
    return new Problem(code, { detail: frameworkDetail(framework.code, status) });
  }
  logError?.(error);
  return unreachable(error) ? dependencyDown() : internal();
}

function frameworkDetail(code: string, status: number): string {
  if (code === "FST_ERR_CTP_INVALID_MEDIA_TYPE") return "The body must be application/json.";
  if (code === "FST_ERR_CTP_BODY_TOO_LARGE") return "The request body is over this route's ceiling.";
  if (code === "FST_ERR_BAD_URL") return "The path is not valid percent-encoded UTF-8.";
  if (code === "FST_ERR_MAX_PARAM_LENGTH") return "A path segment is longer than this API accepts.";
  if (code.startsWith("FST_ERR_CTP") || status === 400) return "The request body is not valid JSON.";
  return "The request could not be read.";
}

export function internal(): Problem {
  return new Problem("UZ-INTERNAL-001", { detail: "The service failed to answer this request." });
}
