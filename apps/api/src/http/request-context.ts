import { Problem } from "@fleet/contracts";
import type { FastifyRequest } from "fastify";
import type { Logger } from "pino";
import type { Authenticator } from "../auth/authenticate.ts";
import { type Credential, SESSION_COOKIE } from "../auth/authorize.ts";
import type { RateLimits } from "../auth/rate-limits.ts";
import type { ServiceContext } from "../services/shared/context.ts";
import type { RequestContext } from "../trpc.ts";
import { clientRequestIdOf } from "./responses.ts";

/** The console's second cookie: an operator token, for the operator plane's pages (runners). */
export const OPERATOR_COOKIE = "fleet_operator";

/** The request's `Authorization: Bearer` credential; null without the header. */
function bearer(request: FastifyRequest): Credential | null {
  const header = request.headers.authorization;
  if (header === undefined) return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  // A malformed Authorization header is a credential that does not verify, not an absent one.
  return { token: match?.[1] ?? "", source: "header" };
}

function cookieValue(request: FastifyRequest, cookie: string): string | null {
  const cookies = request.headers.cookie;
  if (cookies === undefined) return null;
  for (const part of cookies.split(";")) {
    const [name, ...value] = part.trim().split("=");
    if (name !== cookie) continue;
    try {
      return decodeURIComponent(value.join("="));
    } catch {
      return null; // not percent-encoded UTF-8: no value this service ever set
    }
  }
  return null;
}

function cookieCredential(request: FastifyRequest, cookie: string): Credential | null {
  const token = cookieValue(request, cookie);
  return token === null ? null : { token, source: "cookie" };
}

/** What every request's context shares. */
export interface RequestContextParts {
  services: ServiceContext;
  authenticator: Authenticator;
  limits: RateLimits | null;
  log: Logger;
}

/**
 * The procedures' context of a request: its credential from the bearer header, and on /trpc (`cookie`,
 * the console) from the session cookie too, with the operator cookie beside it.
 */
export function requestContexts({ services, authenticator, limits, log }: RequestContextParts) {
  return (cookie: boolean) =>
    (request: FastifyRequest): RequestContext => ({
      requestId: request.id,
      clientRequestId: clientRequestIdOf(request.raw),
      services,
      authenticator,
      limits,
      credential: bearer(request) ?? (cookie ? cookieCredential(request, SESSION_COOKIE) : null),
      operatorCredential: cookie ? cookieCredential(request, OPERATOR_COOKIE) : null,
      csrfHeader: request.headers["x-fleet-csrf"] === "1",
      logError: (error) => log.error({ reqId: request.id, err: error }, "request failed"),
      response: {},
      socket: request.raw.socket ?? null,
      rawBody: null,
      clientAddress: () => request.ip,
      cookie: (name) => cookieValue(request, name),
    });
}

/**
 * What the not-found handler asks of a request under /v1: a bearer credential that verifies (any class),
 * thrown as the refusal otherwise.
 */
export function requireBearer(authenticator: Authenticator, now: () => number) {
  return (request: FastifyRequest): void | Promise<void> => {
    const credential = bearer(request);
    if (credential === null)
      throw new Problem("UZ-AUTH-001", { detail: "Routes under /v1 need a bearer credential." });
    const principal = authenticator.authenticate(credential.token, now());
    if (principal instanceof Promise) return principal.then(() => undefined);
  };
}
