import { randomBytes, timingSafeEqual } from "node:crypto";
import { OAUTH_STATE_TTL_MS, Problem } from "@fleet/contracts";
import { and, connectorOauthStates, eq, gt, lt } from "@fleet/db";
import type { ServiceContext } from "../shared/context.ts";

const PURPOSE = "connector-oauth-state";

export interface StateClaims {
  /** The nonce whose row spends the state. */
  n: string;
  /** Workspace, provider, caller and expiry the state is bound to. */
  w: string;
  p: string;
  c: string;
  e: number;
  /** The hash of the browser binding's nonce (`browser-binding.ts`): the browser that may complete it. */
  b: string;
}

/**
 * Issues a connect's `state`: the claims, base64url, and their MAC under a key derived from the session
 * signing key. Its nonce is stored, so the callback can spend it once; expired nonces are removed here.
 */
export async function issueState(
  ctx: ServiceContext,
  workspaceId: string,
  provider: string,
  caller: string,
  browserHash: string,
): Promise<{ state: string; expiresAt: number }> {
  const now = ctx.now();
  const claims: StateClaims = {
    n: randomBytes(18).toString("base64url"),
    w: workspaceId,
    p: provider,
    c: caller,
    e: now + OAUTH_STATE_TTL_MS,
    b: browserHash,
  };
  await ctx.db.delete(connectorOauthStates).where(lt(connectorOauthStates.expiresAt, now));
  await ctx.db.insert(connectorOauthStates).values({
    nonce: claims.n,
    workspaceId,
    provider,
    caller,
    expiresAt: claims.e,
  });
  const payload = Buffer.from(JSON.stringify(claims)).toString("base64url");
  return { state: `${payload}.${ctx.sessions.mac(PURPOSE, payload)}`, expiresAt: claims.e };
}

const refused = () =>
  new Problem("UZ-CONN-001", {
    detail: "The connect's state is not valid: forged, expired or already used. Start the connect again.",
  });

/**
 * Verifies a state's MAC, provider and time, answering its claims; spends nothing. A state that does not
 * verify, names another provider or has expired is refused.
 */
export function verifyState(ctx: ServiceContext, provider: string, state: string | undefined): StateClaims {
  if (state === undefined) throw refused();
  const dot = state.indexOf(".");
  if (dot <= 0) throw refused();
  const payload = state.slice(0, dot);
  const expected = Buffer.from(ctx.sessions.mac(PURPOSE, payload));
  const given = Buffer.from(state.slice(dot + 1));
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) throw refused();
  let claims: StateClaims;
  try {
    claims = JSON.parse(Buffer.from(payload, "base64url").toString()) as StateClaims;
  } catch {
    throw refused();
  }
  if (claims.p !== provider || typeof claims.e !== "number" || claims.e <= ctx.now()) throw refused();
  return claims;
}

/**
 * Spends a verified state (deletes its nonce's row), answering what it was bound to. A state spent
 * already, or whose row is past its time, is refused.
 */
export async function spendState(
  ctx: ServiceContext,
  provider: string,
  claims: StateClaims,
): Promise<{ workspaceId: string; caller: string }> {
  const [row] = await ctx.db
    .delete(connectorOauthStates)
    .where(
      and(
        eq(connectorOauthStates.nonce, String(claims.n)),
        eq(connectorOauthStates.provider, provider),
        gt(connectorOauthStates.expiresAt, ctx.now()),
      ),
    )
    .returning();
  if (row === undefined || row.workspaceId !== claims.w || row.caller !== claims.c) throw refused();
  return { workspaceId: row.workspaceId, caller: row.caller };
}
