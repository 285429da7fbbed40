import { randomBytes } from "node:crypto";
import { type Database, signInLinks, type Tx } from "@fleet/db";
import { sha256Hex } from "../../auth/tokens.ts";
import { newId } from "../../runtime/ids.ts";
import type { ServiceContext } from "../shared/context.ts";
import { membershipOf } from "./sign-in-membership.ts";

const LINK_TTL_MS = 10 * 60_000;

/** A one-time console sign-in link, valid for ten minutes. */
export async function createSignInLink(
  ctx: ServiceContext,
  input: { email: string; tenantId?: string },
): Promise<{ url: string; expires_at: number }> {
  const member = await membershipOf(ctx, input.email, input.tenantId);
  return insertSignInLink(ctx.db, ctx.config.consoleUrl, member, ctx.now());
}

/**
 * The step of `createSignInLink` that writes the link, for a caller's transaction (an invitation answers
 * the new member's link in the transaction that adds them).
 */
export async function insertSignInLink(
  db: Database | Tx,
  consoleUrl: string,
  member: { tenantId: string; userId: string },
  now: number,
): Promise<{ url: string; expires_at: number }> {
  const token = randomBytes(32).toString("base64url");
  const expiresAt = now + LINK_TTL_MS;
  await db.insert(signInLinks).values({
    id: newId(now),
    tenantId: member.tenantId,
    userId: member.userId,
    tokenHash: sha256Hex(token),
    expiresAt,
  });
  return { url: `${consoleUrl}/auth/link?token=${token}`, expires_at: expiresAt };
}
