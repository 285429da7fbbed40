import { Problem } from "@fleet/contracts";
import { and, deviceSignIns, eq } from "@fleet/db";
import type { TenantPrincipal } from "../../auth/principal.ts";
import { type Actor, recordAudit } from "../shared/audit.ts";
import type { ServiceContext } from "../shared/context.ts";
import { findByUserCode, toView } from "./device-sign-in-view.ts";
import { guardUserCode } from "./user-code-guard.ts";

/**
 * Approves or denies the sign-in waiting with this user code, once: of two answers at once, one changes
 * the row (an update conditional on `pending`) and the other is told 409 with the standing answer. Only a
 * console session answers: a command-line credential that could approve another would renew itself
 * forever (the route takes no API key at all).
 */
export function answerDeviceSignIn(
  ctx: ServiceContext,
  actor: Actor,
  principal: TenantPrincipal,
  userCode: string,
  answer: "approved" | "denied",
) {
  if (principal.credential !== "session_token") {
    throw new Problem("UZ-AUTH-003", {
      detail:
        "A command-line sign-in is approved or denied in the console, signed in: not with a command-line credential.",
    });
  }
  // What it approves is revoked with it, so it must be a session that can be revoked (one with an id).
  const sessionId = principal.sessionId ?? null;
  if (sessionId === null) {
    throw new Problem("UZ-AUTH-003", {
      detail: "This console session was issued before sessions could be signed out; sign in again to answer.",
    });
  }
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
          approvedVia: answer === "approved" ? `session:${sessionId}` : null,
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
