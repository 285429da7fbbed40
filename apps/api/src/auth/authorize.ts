import { hasScope, type Operation, Problem } from "@fleet/contracts";
import type { Authenticator } from "./authenticate.ts";
import { assertFleetKeyReach } from "./fleet-keys.ts";
import { type Principal, principalScopes } from "./principal.ts";

/** The console's session cookie: the API reads it on /trpc, and the connector callback asks who is signed in. */
export const SESSION_COOKIE = "fleet_session";

/** Where the credential came from: the REST surface reads bearer headers, the console its cookie. */
export interface Credential {
  token: string;
  source: "header" | "cookie";
}

/** What authorizing a call reads of its request. */
export interface Caller {
  authenticator: Authenticator;
  credential: Credential | null;
  /** The console's operator cookie, offered to operator-only procedures in place of the session. */
  operatorCredential?: Credential | null;
  /** Whether a cookie-authenticated request carries the console's anti-forgery header. */
  csrfHeader: boolean;
  services: { now(): number };
}

/**
 * Authenticates the credential and checks its class and scope against the operation. Both transports
 * call this: the tRPC middleware and the REST adapter.
 */
export function authorize(
  op: Operation,
  caller: Caller,
  mutation: boolean,
): Principal | null | Promise<Principal | null> {
  if (op.credentials.length === 0) return null;
  const operatorOnly = op.credentials.every((c) => c === "operator");
  const credential =
    operatorOnly && caller.credential?.source !== "header"
      ? (caller.operatorCredential ?? null)
      : caller.credential;
  if (credential === null)
    throw new Problem("UZ-AUTH-001", { detail: "This route needs a bearer credential." });
  if (credential.source === "cookie" && mutation && !caller.csrfHeader) {
    throw new Problem("UZ-AUTH-011", { detail: "A console request must carry the x-fleet-csrf header." });
  }
  const principal = caller.authenticator.authenticate(credential.token, caller.services.now());
  // A cached principal is checked without a promise; a database lookup is checked when it lands.
  return principal instanceof Promise ? principal.then((p) => admit(op, p)) : admit(op, principal);
}

function admit(op: Operation, principal: Principal): Principal {
  if (!op.credentials.includes(principal.class)) {
    throw new Problem("UZ-AUTH-003", {
      detail: `This route does not accept a ${principal.class.replace("_", " ")} credential.`,
    });
  }
  if (op.scope !== null && !hasScope(principalScopes(principal), op.scope)) {
    throw new Problem("UZ-AUTH-022", { detail: `This request needs the scope ${op.scope}.` });
  }
  assertFleetKeyReach(op, principal);
  return principal;
}
