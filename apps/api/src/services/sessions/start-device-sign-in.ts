import { randomBytes, randomInt } from "node:crypto";
import { formatUserCode, USER_CODE_ALPHABET, USER_CODE_LENGTH } from "@fleet/contracts";
import { deviceSignIns, lt } from "@fleet/db";
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
      await ctx.db.insert(deviceSignIns).values({
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
