import type { CredentialClass } from "@fleet/contracts";

/** A person acting in a tenant, through a session token or a tenant API key they created. */
export interface TenantPrincipal {
  class: "session" | "api_key";
  /** What users/me reports as `credential`. */
  credential: "session_token" | "cli_credential" | "tenant_api_key";
  userId: string;
  email: string;
  displayName: string | null;
  tenantId: string;
  tenantName: string;
  /** Scopes in force for this request: the membership's current scopes (narrowed by a session's claim). */
  scopes: string[];
  /** Set for tenant API keys. */
  apiKeyId: string | null;
  /**
   * Set for a fleet key: the one fleet (and its workspace) it acts as. It reaches only the operations of
   * `FLEET_KEY_OPERATIONS`, and in them only this fleet (`assertFleetBinding`).
   */
  fleet?: { workspaceId: string; fleetId: string } | null;
  /** Set for command-line credentials: the `cli_credentials` row revoking it refuses. */
  cliCredentialId?: string | null;
  /** Set for console sessions that can be revoked (`sid`): the `session_revocations` entry refusing it. */
  sessionId?: string | null;
  /** The key's own request quota per rate-limit window, when minted with one; null for the default. */
  rateLimit: number | null;
  /**
   * The rate-limit bucket the credential spends from (`credentialBucket`), made once with the principal:
   * built and hashed afresh on every request, the key string was a tenth of the limiter's cost.
   */
  bucketKey: string;
}

/**
 * A credential's rate-limit bucket: a key's own, or the person's in the tenant for a session (every
 * session of a person shares it; docs/decisions/limits.md, "Rate limits").
 */
export function credentialBucket(apiKeyId: string | null, tenantId: string, userId: string): string {
  return apiKeyId === null ? `u:${tenantId}:${userId}` : `k:${apiKeyId}`;
}

export interface RunnerPrincipal {
  class: "runner";
  runnerId: string;
}

export interface OperatorPrincipal {
  class: "operator";
  subject: string;
  scopes: string[];
}

export type Principal = TenantPrincipal | RunnerPrincipal | OperatorPrincipal;

export function principalClass(principal: Principal): CredentialClass {
  return principal.class;
}

export function principalScopes(principal: Principal): readonly string[] {
  return principal.class === "runner" ? [] : principal.scopes;
}

/** Tags a cached principal is dropped by when the thing they name changes. */
export function invalidationTags(principal: Principal): string[] {
  switch (principal.class) {
    case "runner":
      return [`runner:${principal.runnerId}`];
    case "operator":
      return [];
    default:
      return [
        `tenant:${principal.tenantId}`,
        `user:${principal.userId}`,
        ...(principal.apiKeyId ? [`key:${principal.apiKeyId}`] : []),
        ...(principal.cliCredentialId ? [`cli:${principal.cliCredentialId}`] : []),
        ...(principal.sessionId ? [`session:${principal.sessionId}`] : []),
      ];
  }
}
