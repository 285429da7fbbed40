import { Problem } from "@fleet/contracts";
import { and, deviceSignIns, eq, memberships } from "@fleet/db";
import { sha256Hex } from "../../auth/tokens.ts";
import { insertCliCredential, signCliCredential } from "../cli-credentials/issuance.ts";
import { type RequestRef, recordAudit } from "../shared/audit.ts";
import type { ServiceContext } from "../shared/context.ts";

// Each `slow_down` adds a step to the interval polls must keep, up to a minute (POLL_INTERVAL_MS: the first).
const SLOW_DOWN_STEP_MS = 5_000;
const MAX_INTERVAL_MS = 60_000;
/** A poll this much early still counts as on time: instances' clocks and networks differ a little. */
const POLL_SLACK_MS = 250;

type Row = typeof deviceSignIns.$inferSelect;

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
export async function pollDeviceSignIn(ctx: ServiceContext, request: RequestRef, deviceCode: string) {
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
        approvedVia: row.approvedVia,
      },
      now,
    );
    await tx
      .update(deviceSignIns)
      .set({ status: "spent", lastPolledAt: now, credentialId: credential.id })
      .where(eq(deviceSignIns.id, row.id));
    await recordAudit(tx, {
      actor: { ...request, principal: `user:${row.userId}` },
      at: now,
      tenantId: row.tenantId,
      workspaceId: null,
      action: "cli_credential.issue",
      target: `cli_credential:${credential.id}`,
      details: { device_sign_in_id: row.id, client_name: row.clientName, scopes: row.scopes },
    });
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
