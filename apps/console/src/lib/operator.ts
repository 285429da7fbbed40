import { listAdminModels } from "@fleet/contracts/models/list-admin-models";
import { listRunners } from "@fleet/contracts/runners/list-runners";
import type { ProblemView } from "@fleet/ui";
import { type ApiResult, callApi } from "./session.ts";

/**
 * The console's second credential: an operator token (`fleetctl operator`), for the operator plane's pages
 * (runners). The API reads it from this cookie on /trpc for operator-only procedures, and never takes the
 * person's session cookie there; it is no tenant credential either.
 */
export const OPERATOR_COOKIE = "fleet_operator";

/** Carries a refused token's problem from the route handler to the Runners page, like sign-in's. */
export const OPERATOR_PROBLEM_COOKIE = "fleet_operator_problem";

/** The longest one browser keeps an operator token, whatever the token's own lifetime. */
export const OPERATOR_MAX_SECONDS = 12 * 60 * 60;

/** Where the operator pages live; the cookie's problem is read there and nowhere else. */
export const OPERATOR_PAGES = "/runners";

/** The Models page: readable by every member, its catalogue edits need the operator token. */
export const MODELS_PAGE = "/models";

/** The operator page a return path belongs to: where its refusal's flash cookie is scoped. */
export function operatorPageOf(path: string): string {
  return path === MODELS_PAGE || path.startsWith(`${MODELS_PAGE}?`) ? MODELS_PAGE : OPERATOR_PAGES;
}

export function operatorCookieOptions(secure: boolean) {
  return { httpOnly: true, sameSite: "lax", path: "/", secure } as const;
}

export function operatorProblemCookieOptions(page: string) {
  return { httpOnly: true, sameSite: "lax", path: page, maxAge: 60 } as const;
}

/** What the console may show of the token: its scopes and when it expires. Never the token. */
export interface OperatorClaims {
  /** Null when the token's claims cannot be read: the API still judges every request. */
  scopes: string[] | null;
  expiresAt: number | null;
}

/**
 * Reads an operator token's claims (a JWT's payload: `scopes` space-delimited, `exp` in seconds) without
 * verifying it. Only for showing what the token allows and for the cookie's lifetime: the API verified
 * the token before the cookie was set, and verifies it again on every request.
 */
export function operatorClaims(token: string): OperatorClaims {
  const payload = token.split(".")[1];
  try {
    const claims = JSON.parse(Buffer.from(payload ?? "", "base64url").toString("utf8")) as Record<
      string,
      unknown
    >;
    return {
      scopes: typeof claims.scopes === "string" ? claims.scopes.split(" ").filter(Boolean) : null,
      expiresAt: typeof claims.exp === "number" ? claims.exp * 1000 : null,
    };
  } catch {
    return { scopes: null, expiresAt: null };
  }
}

const emptyToken: ProblemView = {
  title: "Operator token required",
  detail: 'Paste the token that `pnpm fleetctl operator --scopes "runner:admin" --json` printed.',
};

/**
 * Checks a pasted token against the API the way the page it returns to will use it: listing one runner
 * (Runners) or one catalogue row (Models). A 200 means it is an operator token allowed there; a refusal
 * comes back as the API's problem.
 */
export async function verifyOperator(
  token: string,
  page = OPERATOR_PAGES,
): Promise<ApiResult<OperatorClaims>> {
  if (token.length === 0) return { ok: false, problem: emptyToken };
  const op = page === MODELS_PAGE ? listAdminModels : listRunners;
  const result = await callApi(
    `${op.path}?limit=1`,
    { method: op.method, headers: { authorization: `Bearer ${token}` } },
    op.output,
  );
  return result.ok ? { ok: true, value: operatorClaims(token) } : result;
}

/** How long the browser keeps the token: until it expires, at most the console's own bound. */
export function operatorCookieSeconds(claims: OperatorClaims, now: number): number {
  if (claims.expiresAt === null) return OPERATOR_MAX_SECONDS;
  const left = Math.floor((claims.expiresAt - now) / 1000);
  return Math.max(0, Math.min(OPERATOR_MAX_SECONDS, left));
}

/** A path on the operator pages to return to after the form, or the Runners page (no open redirect). */
export function operatorReturnPath(value: unknown): string {
  const path = typeof value === "string" ? value : "";
  return /^\/(runners(\/[0-9a-f-]{36})?|models)(\?[^\s\\]*)?$/.test(path) ? path : OPERATOR_PAGES;
}
