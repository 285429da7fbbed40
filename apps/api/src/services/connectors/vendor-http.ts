import { Problem } from "@fleet/contracts";
import type { Config } from "../../env.ts";

/**
 * Why a vendor call failed: it did not answer in time or could not be reached (`unreachable`, transient),
 * or it answered with an error (`refused`, Slack's `error` string, e.g. `invalid_code`, `token_revoked`).
 */
export class VendorFailure extends Error {
  constructor(
    readonly kind: "unreachable" | "refused",
    readonly reason: string,
  ) {
    super(`${kind}: ${reason}`);
  }

  /** The vendor says the token no longer works: the connector needs reconnecting. */
  get revoked(): boolean {
    return (
      this.kind === "refused" &&
      ["token_revoked", "invalid_auth", "account_inactive", "not_authed", "token_expired"].includes(
        this.reason,
      )
    );
  }
}

/** The 502 an interactive request answers for a vendor failure (UZ-CONN-003 when it was not reached). */
export function vendorProblem(failure: VendorFailure, refusedCode: "UZ-SLK-022" | "UZ-CONN-003"): Problem {
  if (failure.kind === "unreachable")
    return new Problem("UZ-CONN-003", { detail: "The provider did not answer in time; try again." });
  return new Problem(refusedCode, { detail: `The provider refused: ${failure.reason}.` });
}

/**
 * One call to a connector's vendor at its configured (operator-trusted) base URL: the connectors' deadline,
 * no redirect followed. Answers the status and the JSON body (undefined when the body is not JSON). No
 * answer in time, no connection, a 429 or a 5xx is `unreachable`. Never logs the request or the answer.
 */
export async function callVendor(
  config: Config,
  url: string,
  init: { method: "GET" | "POST"; headers: Record<string, string>; body?: string },
): Promise<{ status: number; body: unknown }> {
  let response: Response;
  try {
    response = await fetch(url, {
      ...init,
      redirect: "manual",
      signal: AbortSignal.timeout(config.connectors.deadlineMs),
    });
  } catch (error) {
    throw new VendorFailure("unreachable", describe(error));
  }
  let body: unknown;
  try {
    body = await response.json();
  } catch (error) {
    if ((error as { name?: string }).name === "TimeoutError")
      throw new VendorFailure("unreachable", "timeout");
    body = undefined;
  }
  if (response.status === 429 || response.status >= 500)
    throw new VendorFailure("unreachable", `http_${response.status}`);
  return { status: response.status, body };
}

function describe(error: unknown): string {
  const named = error as { name?: string; code?: string; cause?: { code?: string } };
  if (named.name === "TimeoutError") return "timeout";
  return named.cause?.code ?? named.code ?? named.name ?? "error";
}
