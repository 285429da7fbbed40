import { callingPerson, problemSchema } from "@fleet/contracts";
import { endSession as endSessionOp } from "@fleet/contracts/sessions/end-session";
import { exchangeSignInLink } from "@fleet/contracts/sessions/exchange-sign-in-link";
import { getMe } from "@fleet/contracts/users/get-me";
import type { ProblemView } from "@fleet/ui";
import type { z } from "zod";
import { env } from "../env.ts";
import { REQUEST_TIMEOUT_MS } from "./api-fetch.ts";

/** The cookie the API reads on /trpc; it holds a session token or a tenant API key. */
export const SESSION_COOKIE = "fleet_session";

/** A pasted key never expires, so the console bounds how long one browser keeps it. */
export const KEY_SESSION_SECONDS = 12 * 60 * 60;

export function sessionCookieOptions(secure: boolean) {
  return { httpOnly: true, sameSite: "lax", path: "/", secure } as const;
}

export type ApiResult<T> = { ok: true; value: T } | { ok: false; problem: ProblemView };

const unreachable = (detail: string): ProblemView => ({
  title: "The API could not be reached",
  detail: `The console could not reach the Fleet Control Plane API (${detail}). Try again in a moment.`,
});

const unexpected = (detail: string): ProblemView => ({
  title: "Unexpected answer from the API",
  detail: `The Fleet Control Plane API answered in a shape the console does not know (${detail}).`,
});

/** Calls one /v1 operation server to server and parses the answer with the operation's own schemas. */
export async function callApi<S extends z.ZodType>(
  path: string,
  init: RequestInit,
  output: S,
): Promise<ApiResult<z.infer<S>>> {
  let response: Response;
  try {
    response = await fetch(`${env().apiUrl}${path}`, {
      ...init,
      cache: "no-store",
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
  } catch (error) {
    const timedOut = error instanceof Error && error.name === "TimeoutError";
    return { ok: false, problem: unreachable(timedOut ? "no answer in time" : "no connection") };
  }
  const body: unknown = await response.json().catch(() => null);
  if (response.ok) {
    const parsed = output.safeParse(body);
    if (parsed.success) return { ok: true, value: parsed.data };
    return { ok: false, problem: unexpected("the answer does not match the contract") };
  }
  const problem = problemSchema.safeParse(body);
  return {
    ok: false,
    problem: problem.success ? problem.data : unexpected(`HTTP ${response.status} without a problem body`),
  };
}

/**
 * Spends a one-time sign-in link for a session token. The person's address goes along as X-Forwarded-For,
 * so the exchange spends their per-address bucket, not the console server's that everyone would share.
 */
export function exchangeLink(token: string, forwardedFor: string | null) {
  return callApi(
    exchangeSignInLink.path,
    {
      method: exchangeSignInLink.method,
      headers: {
        "content-type": "application/json",
        ...(forwardedFor === null ? {} : { "x-forwarded-for": forwardedFor }),
      },
      body: JSON.stringify({ token }),
    },
    exchangeSignInLink.output,
  );
}

/**
 * Ends a session token on the API (and the command-line credentials approved through it). Best effort:
 * signing out of the browser goes ahead whatever the API answers; an API key is not a session and stays.
 */
export async function endSession(credential: string): Promise<void> {
  if (credential.startsWith("agt_")) return;
  try {
    await fetch(`${env().apiUrl}${endSessionOp.path}`, {
      method: endSessionOp.method,
      headers: { authorization: `Bearer ${credential}` },
      cache: "no-store",
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
  } catch {
    // Unreachable: the cookie goes anyway; the session ends at its expiry.
  }
}

/** Checks that a credential authenticates, and who it acts as. */
export function whoIs(credential: string) {
  return callApi(
    getMe.path,
    { method: getMe.method, headers: { authorization: `Bearer ${credential}` } },
    callingPerson,
  );
}
