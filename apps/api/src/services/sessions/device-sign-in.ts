import { randomBytes, randomInt } from "node:crypto";
import {
  type DeviceSignInView,
  formatUserCode,
  Problem,
  USER_CODE_ALPHABET,
  USER_CODE_LENGTH,
} from "@fleet/contracts";
import { and, desc, deviceSignIns, eq, gt, lt, memberships } from "@fleet/db";
import type { TenantPrincipal } from "../../auth/principal.ts";
import { sha256Hex } from "../../auth/tokens.ts";
import { newId } from "../../runtime/ids.ts";
import { type Actor, recordAudit } from "../audit/record.ts";
import { insertCliCredential, signCliCredential } from "../cli-credentials/issuance.ts";
import { type ServiceContext, uniqueViolation } from "../context.ts";
import { guardUserCode } from "./user-code-guard.ts";

/** How long a sign-in waits for its answer and its poll (RFC 8628 suggests minutes). */
export const DEVICE_SIGN_IN_TTL_MS = 10 * 60_000;
/** The least time between polls at the start; each `slow_down` adds 5 s, up to a minute. */
export const POLL_INTERVAL_MS = 5_000;
const SLOW_DOWN_STEP_MS = 5_000;
const MAX_INTERVAL_MS = 60_000;
/** A poll this much early still counts as on time: instances' clocks and networks differ a little. */
const POLL_SLACK_MS = 250;
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

type Row = typeof deviceSignIns.$inferSelect;

function toView(row: Row, userCode: string): DeviceSignInView {
  return {
    user_code: formatUserCode(userCode),
    client_name: row.clientName,
    client_host: row.clientHost,
    requested_at: row.createdAt,
    expires_at: row.expiresAt,
    status: row.status === "spent" ? "approved" : (row.status as DeviceSignInView["status"]),
  };
}

/** The newest sign-in with this user code that has not expired, or null. */
async function findByUserCode(ctx: ServiceContext, userCode: string, now: number): Promise<Row | null> {
  const [row] = await ctx.db
    .select()
    .from(deviceSignIns)
    .where(and(eq(deviceSignIns.userCodeHash, sha256Hex(userCode)), gt(deviceSignIns.expiresAt, now)))
    .orderBy(desc(deviceSignIns.createdAt))
    .limit(1);
  return row ?? null;
}

/** What /device shows for a user code: who asks, when, and whether it was answered. */
export function getDeviceSignIn(ctx: ServiceContext, principal: TenantPrincipal, userCode: string) {
  return guardUserCode(ctx, principal.userId, async () => {
    const row = await findByUserCode(ctx, userCode, ctx.now());
    return row === null ? null : toView(row, userCode);
  });
}

/**
 * Approves or denies the sign-in waiting with this user code, once: of two answers at once, one changes
 * the row (an update conditional on `pending`) and the other is told 409 with the standing answer.
 */
export function answerDeviceSignIn(
  ctx: ServiceContext,
  actor: Actor,
  principal: TenantPrincipal,
  userCode: string,
  answer: "approved" | "denied",
) {
  return guardUserCode(ctx, principal.userId, async () => {
    const now = ctx.now();
    const row = await findByUserCode(ctx, userCode, now);
    if (row === null) return null;
    const answered = await ctx.db.transaction(async (tx) => {
      const [updated] = await tx
        .update(deviceSignIns)
        .set({
          status: answer,
          answeredAt: now,
          tenantId: principal.tenantId,
          userId: principal.userId,
          // The credential carries what this session may do now; authentication narrows it further to
          // the membership's scopes at each request.
          scopes: answer === "approved" ? principal.scopes : null,
        })
        .where(and(eq(deviceSignIns.id, row.id), eq(deviceSignIns.status, "pending")))
        .returning();
      if (updated !== undefined)
        await recordAudit(tx, {
          actor,
          at: now,
          tenantId: principal.tenantId,
          workspaceId: null,
          action: answer === "approved" ? "cli_sign_in.approve" : "cli_sign_in.deny",
          target: `user:${principal.userId}`,
          details: { client_name: row.clientName, client_host: row.clientHost },
        });
      return updated;
    });
    if (answered === undefined) {
      const [current] = await ctx.db
        .select({ status: deviceSignIns.status })
        .from(deviceSignIns)
        .where(eq(deviceSignIns.id, row.id));
      const state = current?.status === "spent" ? "approved" : (current?.status ?? "approved");
      throw new Problem("UZ-AUTH-017", {
        detail: `This sign-in was already ${state}.`,
        current_state: state,
      });
    }
    return toView(answered, userCode);
  });
}

type PollOutcome =
  | { kind: "invalid" }
  | { kind: "slow_down"; intervalMs: number }
  | { kind: "pending"; intervalMs: number }
  | { kind: "denied" }
  | { kind: "approved"; row: Row; credential: { id: string } };

/**
 * The client's poll. One transaction holds the sign-in's row, so of two polls at once one sees the
 * other's poll time (and is told to slow down) or its spent state: one credential, ever.
 */
export async function pollDeviceSignIn(ctx: ServiceContext, deviceCode: string) {
  const now = ctx.now();
  const ttlSeconds = ctx.config.cliCredentialTtlSeconds;
  const outcome = await ctx.db.transaction(async (tx): Promise<PollOutcome> => {
    const [row] = await tx
      .select()
      .from(deviceSignIns)
      .where(eq(deviceSignIns.deviceCodeHash, sha256Hex(deviceCode)))
      .for("update");
    if (row === undefined || row.status === "spent" || row.expiresAt <= now) return { kind: "invalid" };
    if (row.lastPolledAt !== null && now - row.lastPolledAt < row.intervalMs - POLL_SLACK_MS) {
      const intervalMs = Math.min(row.intervalMs + SLOW_DOWN_STEP_MS, MAX_INTERVAL_MS);
      await tx
        .update(deviceSignIns)
        .set({ intervalMs, lastPolledAt: now })
        .where(eq(deviceSignIns.id, row.id));
      return { kind: "slow_down", intervalMs };
    }
    if (row.status === "pending" || row.status === "denied") {
      await tx.update(deviceSignIns).set({ lastPolledAt: now }).where(eq(deviceSignIns.id, row.id));
      return row.status === "pending" ? { kind: "pending", intervalMs: row.intervalMs } : { kind: "denied" };
    }
    // Approved: spend it. The approver must still be a member, or the sign-in counts as denied.
    const [member] = await tx
      .select({ userId: memberships.userId })
      .from(memberships)
      .where(and(eq(memberships.tenantId, row.tenantId!), eq(memberships.userId, row.userId!)));
    if (member === undefined) {
      await tx
        .update(deviceSignIns)
        .set({ status: "denied", lastPolledAt: now })
        .where(eq(deviceSignIns.id, row.id));
      return { kind: "denied" };
    }
    const credential = await insertCliCredential(
      tx,
      {
        tenantId: row.tenantId!,
        userId: row.userId!,
        clientName: row.clientName,
        clientHost: row.clientHost,
        ttlSeconds,
      },
      now,
    );
    await tx
      .update(deviceSignIns)
      .set({ status: "spent", lastPolledAt: now, credentialId: credential.id })
      .where(eq(deviceSignIns.id, row.id));
    return { kind: "approved", row, credential };
  });
  switch (outcome.kind) {
    case "invalid":
      throw new Problem("UZ-AUTH-014", {
        detail: "The device code is unknown, was already used, or has expired; start a new sign-in.",
      });
    case "slow_down":
      throw new Problem("UZ-AUTH-013", {
        detail: `Polled too soon: wait at least ${outcome.intervalMs / 1000} seconds between polls.`,
        headers: { "retry-after": String(outcome.intervalMs / 1000) },
      });
    case "pending":
      throw new Problem("UZ-AUTH-012", {
        detail: "The person has not answered yet; poll again after the interval.",
        current_state: "pending",
        headers: { "retry-after": String(outcome.intervalMs / 1000) },
      });
    case "denied":
      throw new Problem("UZ-AUTH-015", { detail: "The sign-in was denied." });
    case "approved": {
      const { row, credential } = outcome;
      const signed = await signCliCredential(
        ctx,
        {
          credentialId: credential.id,
          tenantId: row.tenantId!,
          userId: row.userId!,
          scopes: row.scopes ?? [],
          ttlSeconds,
        },
        now,
      );
      return {
        session_token: signed.token,
        token_type: "Bearer" as const,
        expires_at: signed.expiresAt,
        credential_id: credential.id,
        user_id: row.userId!,
        tenant_id: row.tenantId!,
      };
    }
  }
}
