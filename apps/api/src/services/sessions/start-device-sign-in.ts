import { randomBytes, randomInt } from "node:crypto";
import { formatUserCode, Problem, USER_CODE_ALPHABET, USER_CODE_LENGTH } from "@fleet/contracts";
import { and, count, deviceSignIns, eq, gt, lt, sql } from "@fleet/db";
import { sha256Hex } from "../../auth/tokens.ts";
import { newId } from "../../runtime/ids.ts";
import type { ServiceContext } from "../shared/context.ts";
import { uniqueViolation } from "../shared/errors.ts";

/** How long a sign-in waits for its answer and its poll (RFC 8628 suggests minutes). */
export const DEVICE_SIGN_IN_TTL_MS = 10 * 60_000;
/** The least time between polls at the start; each `slow_down` adds 5 s, up to a minute. */
export const POLL_INTERVAL_MS = 5_000;
/** Expired sign-ins are kept this long after expiry (a late poll is told it expired), then deleted. */
const KEEP_EXPIRED_MS = 60 * 60_000;
/** The advisory lock that makes starts count the waiting sign-ins one at a time. */
const START_LOCK = 7_311_045_029;
/** What a start refused at the cap is told to wait: the time a few waiting sign-ins take to end. */
const RETRY_AFTER_S = 30;

function newUserCode(): string {
  let code = "";
  for (let i = 0; i < USER_CODE_LENGTH; i++) code += USER_CODE_ALPHABET[randomInt(USER_CODE_ALPHABET.length)];
  return code;
}

/** Starts a command-line sign-in: a device code for the client, a user code for the person. */
export async function startDeviceSignIn(
  ctx: ServiceContext,
  input: { client_name: string; client_host?: string | undefined },
) {
  const now = ctx.now();
  const deviceCode = randomBytes(32).toString("base64url");
  await ctx.db.delete(deviceSignIns).where(lt(deviceSignIns.expiresAt, now - KEEP_EXPIRED_MS));
  // Two sign-ins waiting at once never share a user code (a unique index): draw again on a collision.
  for (let attempt = 0; ; attempt++) {
    const userCode = newUserCode();
    try {
      await ctx.db.transaction(async (tx) => {
        // Starts count and insert one at a time, so racing starts cannot pass the cap together.
        await tx.execute(sql`select pg_advisory_xact_lock(${START_LOCK})`);
        const [waiting] = await tx
          .select({ n: count() })
          .from(deviceSignIns)
          .where(and(eq(deviceSignIns.status, "pending"), gt(deviceSignIns.expiresAt, now)));
        if ((waiting?.n ?? 0) >= ctx.config.maxPendingDeviceSignIns)
          throw new Problem("UZ-API-001", {
            detail:
              "As many command-line sign-ins are waiting for their answer as this service takes; retry shortly.",
            headers: { "retry-after": String(RETRY_AFTER_S) },
          });
        await tx.insert(deviceSignIns).values({
          id: newId(now),
          deviceCodeHash: sha256Hex(deviceCode),
          userCodeHash: sha256Hex(userCode),
          clientName: input.client_name,
          clientHost: input.client_host ?? null,
          status: "pending",
          createdAt: now,
          expiresAt: now + DEVICE_SIGN_IN_TTL_MS,
          intervalMs: POLL_INTERVAL_MS,
        });
      });
    } catch (error) {
      if (attempt < 3 && uniqueViolation(error, "device_sign_ins_pending_user_code_key")) continue;
      throw error;
    }
    const shown = formatUserCode(userCode);
    const verification = `${ctx.config.consoleUrl}/device`;
    return {
      device_code: deviceCode,
      user_code: shown,
      verification_uri: verification,
      verification_uri_complete: `${verification}?code=${shown}`,
      expires_in: DEVICE_SIGN_IN_TTL_MS / 1000,
      interval: POLL_INTERVAL_MS / 1000,
    };
  }
}
