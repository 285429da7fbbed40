import { Problem } from "@fleet/contracts";
import type { Bucket, Quota, RateLimiter } from "../runtime/rate-limiter.ts";
import type { Principal, TenantPrincipal } from "./principal.ts";

/** A call with no credential: the route it reached and the client's address, read only when needed. */
export interface AnonymousCall {
  route: string;
  address: () => string;
}

/**
 * Which buckets a call counts against (docs/decisions/limits.md, "Rate limits"). A person's call,
 * through an API key or a session, spends a token of its credential's bucket (the key's own quota when
 * minted with one), and a call on a route under `/v1/workspaces/{workspace_id}` one of that workspace's.
 * A call with no credential (sign-in, chat ingress, the grant webhook) spends one of its client address's
 * bucket for that route. Runner and operator calls are not counted: runners are held by their lease caps,
 * operators run the instance. Both transports call `admit` after `authorize` and before the input is read.
 */
export class RateLimits {
  readonly #quotas = new Map<number, Quota>();
  readonly workspace: Quota;
  readonly credential: Quota;
  readonly address: Quota;

  constructor(
    readonly limiter: RateLimiter,
    readonly windowMs: number,
    workspaceLimit: number,
    credentialLimit: number,
    addressLimit: number,
    /** Told of each refusal, with the bucket that refused (the metrics). */
    private readonly onRefusal: (bucket: "credential" | "workspace" | "address") => void = () => {},
  ) {
    this.workspace = { limit: workspaceLimit, windowMs };
    this.credential = this.#quota(credentialLimit);
    this.address = { limit: addressLimit, windowMs };
  }

  /** One quota object per limit, so a key's override costs no allocation per request. */
  #quota(limit: number): Quota {
    let quota = this.#quotas.get(limit);
    if (quota === undefined) {
      quota = { limit, windowMs: this.windowMs };
      this.#quotas.set(limit, quota);
    }
    return quota;
  }

  /**
   * Admits the call or throws 429 `UZ-API-001`. Answers the bucket whose headers the answer carries (the
   * one with the fewest requests left), or null when the call is not limited.
   */
  admit(
    principal: Principal | null,
    workspaceId: unknown,
    anonymous?: AnonymousCall,
  ): Bucket | null | Promise<Bucket | null> {
    if (principal === null) return anonymous === undefined ? null : this.#byAddress(anonymous);
    if (principal.class === "runner" || principal.class === "operator") return null;
    const key = principal.bucketKey;
    const quota = principal.rateLimit === null ? this.credential : this.#quota(principal.rateLimit);
    const taken = this.limiter.take(key, quota);
    if (taken instanceof Promise)
      return taken.then((bucket) => this.#then(bucket, key, principal, workspaceId));
    return this.#then(taken, key, principal, workspaceId);
  }

  /**
   * Counts a runner's model call through the gateway against its fleet's workspace quota (the bucket a
   * tenant's calls on that workspace's routes spend), or throws 429 `UZ-API-001`: a run's model traffic
   * is the tenant's traffic (docs/decisions/model-gateway.md).
   */
  admitWorkspace(tenantId: string, workspaceId: string): void | Promise<void> {
    const key = `w:${tenantId}:${workspaceId.toLowerCase()}`;
    const settle = (bucket: Bucket | false): void => {
      if (bucket !== false) return;
      this.onRefusal("workspace");
      throw refusal(this.limiter.bucket(key)!, "This workspace's", this.limiter.now());
    };
    const taken = this.limiter.take(key, this.workspace);
    return taken instanceof Promise ? taken.then(settle) : settle(taken);
  }

  /** One bucket per client address (an IPv6 /64) and route: a chat vendor's burst never starves a sign-in. */
  #byAddress(call: AnonymousCall): Bucket | Promise<Bucket> {
    const key = `a:${call.route}:${addressBucket(call.address())}`;
    const settle = (bucket: Bucket | false): Bucket => {
      if (bucket !== false) return bucket;
      this.onRefusal("address");
      throw refusal(this.limiter.bucket(key)!, "This address's", this.limiter.now());
    };
    const taken = this.limiter.take(key, this.address);
    return taken instanceof Promise ? taken.then(settle) : settle(taken);
  }

  #then(
    credential: Bucket | false,
    key: string,
    principal: TenantPrincipal,
    workspaceId: unknown,
  ): Bucket | Promise<Bucket> {
    if (credential === false) {
      this.onRefusal("credential");
      throw refusal(this.limiter.bucket(key)!, "This credential's", this.limiter.now());
    }
    if (typeof workspaceId !== "string") return credential;
    // Keyed by the caller's tenant too: calls naming another tenant's workspace spend none of its quota.
    // The id is read raw (the call's input is parsed after it is admitted), so in its one spelling here:
    // letters in capitals name the same workspace and spend the same quota.
    const workspaceKey = `w:${principal.tenantId}:${workspaceId.toLowerCase()}`;
    const taken = this.limiter.take(workspaceKey, this.workspace);
    const settle = (workspace: Bucket | false): Bucket => {
      if (workspace === false) {
        this.limiter.refund(credential);
        this.onRefusal("workspace");
        throw refusal(this.limiter.bucket(workspaceKey)!, "This workspace's", this.limiter.now());
      }
      return workspace.remaining() < credential.remaining() ? workspace : credential;
    };
    return taken instanceof Promise ? taken.then(settle) : settle(taken);
  }
}

function refusal(bucket: Bucket, whose: string, now: number): Problem {
  const retryAfter = bucket.retryAfterSeconds(now);
  const headers = rateLimitHeaders(bucket);
  return new Problem("UZ-API-001", {
    detail: `${whose} request quota is spent; retry in ${retryAfter} s.`,
    headers: {
      "retry-after": String(retryAfter),
      ...headers,
      "x-ratelimit-limit": headers["ratelimit-limit"],
      "x-ratelimit-remaining": headers["ratelimit-remaining"],
      "x-ratelimit-reset": headers["ratelimit-reset"],
    },
  });
}

/**
 * The RateLimit-* headers of `bucket` as an object, for a refusal (beside their X-RateLimit-* spelling, the
 * decisions row's for the 429). Admitted answers get them from the bucket once half of it is spent
 * (`Bucket.writeAdmittedHeaders`), in one spelling only: each header costs every request its validation
 * and bytes.
 */
function rateLimitHeaders(bucket: Bucket): {
  "ratelimit-limit": string;
  "ratelimit-remaining": string;
  "ratelimit-reset": string;
} {
  const headers = {} as ReturnType<typeof rateLimitHeaders>;
  bucket.writeHeaders(headers);
  return headers;
}

/**
 * The bucket an address spends from: an IPv4 address (also written IPv4-mapped, `::ffff:a.b.c.d`) is its
 * own; an IPv6 address spends its /64's, the block one subscriber is given, so walking the addresses of
 * one's own block does not draw fresh buckets.
 */
export function addressBucket(address: string): string {
  const bare = address.replace(/%.*$/, "").toLowerCase();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(bare);
  if (mapped !== null) return mapped[1]!;
  if (!bare.includes(":")) return bare;
  const [head = "", tail] = bare.split("::");
  const front = head === "" ? [] : head.split(":");
  const back = tail === undefined || tail === "" ? [] : tail.split(":");
  const groups =
    tail === undefined
      ? front
      : [...front, ...Array(Math.max(0, 8 - front.length - back.length)).fill("0"), ...back];
  return `${groups
    .slice(0, 4)
    .map((group) => group.replace(/^0+(?=.)/, ""))
    .join(":")}::/64`;
}
