import { hasScope, Problem } from "@fleet/contracts";
import {
  and,
  apiKeys,
  cliCredentials,
  type Database,
  eq,
  fleets,
  memberships,
  or,
  runners,
  sessionRevocations,
  tenants,
  users,
} from "@fleet/db";
import { FLEET_KEY_SCOPES } from "./fleet-keys.ts";
import { credentialBucket, invalidationTags, type Principal, type TenantPrincipal } from "./principal.ts";
import type { PrincipalCache } from "./principal-cache.ts";
import type { SessionSigner } from "./sessions.ts";
import { FLEET_KEY_PREFIX, RUNNER_TOKEN_PREFIX, sha256Hex, TENANT_KEY_PREFIX } from "./tokens.ts";

const LAST_USED_INTERVAL_MS = 60_000;

/** The earlier of two instants, null standing for never. */
function earliest(a: number | null, b: number | null): number | null {
  if (a === null) return b;
  return b === null ? a : Math.min(a, b);
}

function invalid(): Problem {
  return new Problem("UZ-AUTH-002", { detail: "The credential is not valid." });
}

/** Turns a bearer credential into a principal, from the in-process cache when it can. */
export class Authenticator {
  /** When each key's last_used_at was last written by this instance. */
  private readonly lastUsedWrites = new Map<string, number>();

  constructor(
    private readonly db: Database,
    private readonly cache: PrincipalCache,
    private readonly sessions: SessionSigner,
    private readonly onBackgroundError: (error: unknown) => void,
  ) {}

  /**
   * The principal a bearer credential stands for. Answers synchronously from the cache, so the common
   * request costs no promise; a refusal is thrown.
   */
  authenticate(token: string, now: number): Principal | Promise<Principal> {
    const cacheKey = sha256Hex(token);
    const cached = this.cache.get(cacheKey, now);
    if (cached !== undefined) return this.admit(cached, now);
    return this.resolve(token, cacheKey, now, this.cache.snapshot()).then((resolved) =>
      this.admit(resolved, now),
    );
  }

  private admit(resolved: Principal | Problem, now: number): Principal {
    if (resolved instanceof Problem) throw resolved;
    if (resolved.class === "api_key") this.touchKey(resolved.apiKeyId!, now);
    return resolved;
  }

  private async resolve(
    token: string,
    hash: string,
    now: number,
    since: number,
  ): Promise<Principal | Problem> {
    if (token.startsWith(TENANT_KEY_PREFIX) || token.startsWith(FLEET_KEY_PREFIX)) {
      return this.resolveApiKey(hash, now, since);
    }
    if (token.startsWith(RUNNER_TOKEN_PREFIX)) return this.resolveRunner(hash, now, since);
    if (token.split(".").length === 3) return this.resolveSession(token, hash, now, since);
    return invalid();
  }

  private async resolveApiKey(hash: string, now: number, since: number): Promise<Principal | Problem> {
    const [row] = await this.db
      .select({
        keyId: apiKeys.id,
        rateLimit: apiKeys.rateLimit,
        revokedAt: apiKeys.revokedAt,
        expiresAt: apiKeys.expiresAt,
        keyHash: apiKeys.keyHash,
        previousExpiresAt: apiKeys.previousExpiresAt,
        keyScopes: apiKeys.scopes,
        fleetId: apiKeys.fleetId,
        workspaceId: fleets.workspaceId,
        tenantId: apiKeys.tenantId,
        tenantName: tenants.name,
        userId: users.id,
        email: users.email,
        displayName: users.displayName,
        scopes: memberships.scopes,
      })
      .from(apiKeys)
      .innerJoin(tenants, eq(tenants.id, apiKeys.tenantId))
      .innerJoin(users, eq(users.id, apiKeys.createdBy))
      .leftJoin(fleets, eq(fleets.id, apiKeys.fleetId))
      .leftJoin(
        memberships,
        and(eq(memberships.tenantId, apiKeys.tenantId), eq(memberships.userId, apiKeys.createdBy)),
      )
      .where(or(eq(apiKeys.keyHash, hash), eq(apiKeys.previousKeyHash, hash)));
    if (row === undefined) return invalid();
    const tags = [`key:${row.keyId}`, `user:${row.userId}`, `tenant:${row.tenantId}`];
    // A secret a rotation replaced authenticates until its grace period ends, and then as an unknown one.
    const current = row.keyHash === hash;
    const until = current ? row.expiresAt : earliest(row.expiresAt, row.previousExpiresAt);
    if (!current && (row.previousExpiresAt === null || row.previousExpiresAt <= now)) return invalid();
    if (row.revokedAt !== null) {
      const refusal = new Problem("UZ-APIKEY-004", { detail: "This API key was revoked." });
      this.cache.set(hash, refusal, tags, now, since);
      return refusal;
    }
    if (row.expiresAt !== null && row.expiresAt <= now) {
      const refusal = new Problem("UZ-APIKEY-007", { detail: "This API key has expired." });
      this.cache.set(hash, refusal, tags, now, since);
      return refusal;
    }
    if (row.scopes === null) return invalid(); // its creator left the tenant
    if (row.fleetId !== null && row.workspaceId === null) return invalid(); // its fleet is gone
    const held = row.scopes;
    // A narrowed key acts with the scopes it was minted with that its creator still holds.
    // A fleet key acts with the fleet scopes of FLEET_KEY_SCOPES its creator holds, and nothing else.
    const chosen = row.fleetId !== null ? FLEET_KEY_SCOPES : row.keyScopes;
    const scopes = chosen === null ? held : chosen.filter((scope) => hasScope(held, scope));
    const principal: TenantPrincipal = {
      class: "api_key",
      credential: "tenant_api_key",
      userId: row.userId,
      email: row.email,
      displayName: row.displayName,
      tenantId: row.tenantId,
      tenantName: row.tenantName,
      scopes,
      apiKeyId: row.keyId,
      fleet:
        row.fleetId === null || row.workspaceId === null
          ? null
          : { workspaceId: row.workspaceId, fleetId: row.fleetId },
      rateLimit: row.rateLimit,
      bucketKey: credentialBucket(row.keyId, row.tenantId, row.userId),
    };
    // A key with an expiry (or a replaced secret in its grace) leaves the cache when it ends, so the next
    // request meets the refusal.
    const maxAge = until === null ? undefined : until - now;
    this.cache.set(hash, principal, tags, now, since, maxAge);
    return principal;
  }

  private async resolveRunner(hash: string, now: number, since: number): Promise<Principal | Problem> {
    const [row] = await this.db
      .select({ id: runners.id, revokedAt: runners.revokedAt })
      .from(runners)
      .where(eq(runners.tokenHash, hash));
    if (row === undefined || row.revokedAt !== null) return invalid();
    const principal: Principal = { class: "runner", runnerId: row.id };
    this.cache.set(hash, principal, invalidationTags(principal), now, since);
    return principal;
  }

  private async resolveSession(
    token: string,
    hash: string,
    now: number,
    since: number,
  ): Promise<Principal | Problem> {
    const claims = await this.sessions.verify(token, now);
    if (claims === null) return invalid();
    const maxAge = claims.expiresAt - now;
    if (claims.kind === "operator") {
      const principal: Principal = { class: "operator", subject: claims.sub, scopes: claims.scopes };
      this.cache.set(hash, principal, [], now, since, maxAge);
      return principal;
    }
    const [row] = await this.db
      .select({
        tenantName: tenants.name,
        email: users.email,
        displayName: users.displayName,
        scopes: memberships.scopes,
        joinedAt: memberships.createdAt,
      })
      .from(memberships)
      .innerJoin(tenants, eq(tenants.id, memberships.tenantId))
      .innerJoin(users, eq(users.id, memberships.userId))
      .where(and(eq(memberships.tenantId, claims.tenantId!), eq(memberships.userId, claims.sub)));
    if (row === undefined) return invalid();
    // A token issued before the membership began belongs to an earlier membership the person was removed
    // from: a later invitation does not bring it back.
    if ((claims.issuedAt ?? 0) < row.joinedAt) return invalid();
    if (claims.kind === "cli") {
      // A command-line credential stands for its row: revoked (or from before rows existed), it is refused.
      if (claims.credentialId === undefined) return invalid();
      const [credential] = await this.db
        .select({ revokedAt: cliCredentials.revokedAt })
        .from(cliCredentials)
        .where(
          and(
            eq(cliCredentials.id, claims.credentialId),
            eq(cliCredentials.tenantId, claims.tenantId!),
            eq(cliCredentials.userId, claims.sub),
          ),
        );
      if (credential === undefined || credential.revokedAt !== null) {
        const refusal = new Problem("UZ-AUTH-002", {
          detail: "This command-line credential was revoked.",
        });
        const tags = [`cli:${claims.credentialId}`, `user:${claims.sub}`, `tenant:${claims.tenantId}`];
        this.cache.set(hash, refusal, tags, now, since, maxAge);
        return refusal;
      }
    }
    if (claims.kind === "session" && claims.sessionId !== undefined) {
      // A console session signed out (or revoked) is refused from then on, on every instance.
      const [revoked] = await this.db
        .select({ at: sessionRevocations.revokedAt })
        .from(sessionRevocations)
        .where(eq(sessionRevocations.sessionId, claims.sessionId));
      if (revoked !== undefined) {
        const refusal = new Problem("UZ-AUTH-002", { detail: "This session was signed out." });
        const tags = [`session:${claims.sessionId}`, `user:${claims.sub}`, `tenant:${claims.tenantId}`];
        this.cache.set(hash, refusal, tags, now, since, maxAge);
        return refusal;
      }
    }
    const principal: TenantPrincipal = {
      class: "session",
      credential: claims.kind === "cli" ? "cli_credential" : "session_token",
      userId: claims.sub,
      email: row.email,
      displayName: row.displayName,
      tenantId: claims.tenantId!,
      tenantName: row.tenantName,
      // A session acts with the member's current scopes, narrowed to those the token was issued for.
      scopes: row.scopes.filter((scope) => claims.scopes.includes(scope)),
      apiKeyId: null,
      cliCredentialId: claims.credentialId ?? null,
      sessionId: claims.sessionId ?? null,
      rateLimit: null,
      bucketKey: credentialBucket(null, claims.tenantId!, claims.sub),
    };
    this.cache.set(hash, principal, invalidationTags(principal), now, since, maxAge);
    return principal;
  }

  /** Records a key's use at most once a minute per instance, off the request's path. */
  private touchKey(keyId: string, now: number): void {
    const last = this.lastUsedWrites.get(keyId) ?? 0;
    if (now - last < LAST_USED_INTERVAL_MS) return;
    this.lastUsedWrites.set(keyId, now);
    this.db
      .update(apiKeys)
      .set({ lastUsedAt: now })
      .where(eq(apiKeys.id, keyId))
      .then(undefined, this.onBackgroundError);
  }
}
