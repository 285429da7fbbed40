import { createHmac, randomBytes } from "node:crypto";
import { type Database, eq, serviceSettings } from "@fleet/db";
import { errors as joseErrors, jwtVerify, SignJWT } from "jose";

const ISSUER = "fleet-control-plane";
const AUDIENCE = "fleet-control-plane";
const SETTING = "session_signing_key";

/** What kind of session a token is: a console session, a command-line credential, or an operator token. */
export type SessionKind = "session" | "cli" | "operator";

export interface SessionClaims {
  sub: string;
  kind: SessionKind;
  /** Absent on operator tokens. */
  tenantId: string | null;
  scopes: string[];
  expiresAt: number;
  /** When the token was issued, epoch ms (`iat_ms`; from a token without it, the end of its iat second). */
  issuedAt?: number;
  /** A command-line credential's row (`cid`): it authenticates while that row is not revoked. */
  credentialId?: string;
  /**
   * A console session's id (`sid`): signing out lists it in `session_revocations`, and authentication
   * refuses it from then on. Absent on sessions issued before sessions could be revoked.
   */
  sessionId?: string;
}

/** Signs and verifies session tokens (HS256 JWTs with iss and aud checked). */
export class SessionSigner {
  private constructor(private readonly key: Uint8Array) {}

  /** Uses the configured key, or the one generated on first start and kept in the database. */
  static async create(db: Database, configured: string | undefined, now: number): Promise<SessionSigner> {
    if (configured !== undefined) return new SessionSigner(new TextEncoder().encode(configured));
    await db
      .insert(serviceSettings)
      .values({ name: SETTING, value: randomBytes(32).toString("base64url"), createdAt: now })
      .onConflictDoNothing();
    const [row] = await db.select().from(serviceSettings).where(eq(serviceSettings.name, SETTING));
    return new SessionSigner(new TextEncoder().encode(row!.value));
  }

  async sign(
    claims: Omit<SessionClaims, "expiresAt">,
    ttlSeconds: number,
    now: number,
  ): Promise<{ token: string; expiresAt: number }> {
    const iat = Math.floor(now / 1000);
    const exp = iat + ttlSeconds;
    const token = await new SignJWT({
      kind: claims.kind,
      scopes: claims.scopes.join(" "),
      ...(claims.tenantId ? { tenant_id: claims.tenantId } : {}),
      ...(claims.credentialId ? { cid: claims.credentialId } : {}),
      ...(claims.sessionId ? { sid: claims.sessionId } : {}),
      // The issuing instant in ms (iat has whole seconds): a token older than its membership is refused.
      iat_ms: now,
    })
      .setProtectedHeader({ alg: "HS256", typ: "JWT" })
      .setSubject(claims.sub)
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setIssuedAt(iat)
      .setExpirationTime(exp)
      .sign(this.key);
    return { token, expiresAt: exp * 1000 };
  }

  /**
   * HMAC-SHA256 (base64url) of `data` under a key derived from the signing key for `purpose`, for values
   * the service signs that are not session tokens (a connect's OAuth `state`): one kind of signed value
   * never verifies as another.
   */
  mac(purpose: string, data: string): string {
    const key = createHmac("sha256", this.key).update(`fleet-mac:${purpose}`).digest();
    return createHmac("sha256", key).update(data).digest("base64url");
  }

  /** The token's claims, or null when it does not verify or has expired. */
  async verify(token: string, now: number): Promise<SessionClaims | null> {
    try {
      const { payload } = await jwtVerify(token, this.key, {
        issuer: ISSUER,
        audience: AUDIENCE,
        algorithms: ["HS256"],
        currentDate: new Date(now),
      });
      const kind = payload.kind;
      if (typeof payload.sub !== "string" || (kind !== "session" && kind !== "cli" && kind !== "operator"))
        return null;
      const tenantId = typeof payload.tenant_id === "string" ? payload.tenant_id : null;
      if (kind !== "operator" && tenantId === null) return null;
      const scopes = typeof payload.scopes === "string" ? payload.scopes.split(" ").filter(Boolean) : [];
      return {
        sub: payload.sub,
        kind,
        tenantId,
        scopes,
        expiresAt: (payload.exp ?? 0) * 1000,
        issuedAt: typeof payload.iat_ms === "number" ? payload.iat_ms : ((payload.iat ?? 0) + 1) * 1000 - 1,
        ...(typeof payload.cid === "string" ? { credentialId: payload.cid } : {}),
        ...(kind === "session" && typeof payload.sid === "string" ? { sessionId: payload.sid } : {}),
      };
    } catch (error) {
      if (error instanceof joseErrors.JOSEError) return null;
      throw error;
    }
  }
}
