import { type Database, resultRows, sql } from "@fleet/db";
import { PinnedAgentPool } from "../../runtime/pinned-connect.ts";
import { postPinnedReading } from "../../runtime/pinned-post.ts";
import { HostRefused, resolvePublic, systemResolve } from "../../runtime/public-address.ts";
import type { NoticeRequest, ServiceContext } from "../shared/context.ts";
import { errorCode } from "../shared/errors.ts";
import { batchesOf, type GroupCommit } from "../shared/group-commit.ts";
import { webhookPayload } from "./delivery-rows.ts";
import { signingSecrets } from "./endpoint-rows.ts";
import { disableIfFailing } from "./failing-endpoints.ts";
import { disableGone } from "./gone-endpoints.ts";
import { retryDelayMs, WEBHOOK_MAX_ATTEMPTS } from "./retry-schedule.ts";
import { signedHeaders } from "./signing.ts";

/** The deliverer's pg-boss queue and cadence: a pass a second picks up retries and any missed kick. */
export const WEBHOOK_DELIVERY_QUEUE = "webhook-delivery";
export const WEBHOOK_DELIVERY_EVERY_MS = 1_000;

/** How long a receiver has to answer (its status and the first bytes of its body) before it is a timeout. */
export const WEBHOOK_TIMEOUT_MS = 10_000;

/** How long a claimed delivery is held by its deliverer before another pass may take it again. */
const CLAIM_MS = WEBHOOK_TIMEOUT_MS + 50_000;

/** How much of an answer's body an attempt keeps. */
export const RESPONSE_HEAD_BYTES = 1024;

/** Told about an attempt that did not end its delivery: never a secret or a payload, the URL's origin only. */
export type WebhookDeliveryReport = (failure: {
  endpointId: string;
  eventId: string;
  attempt: number;
  reason: string;
  givenUp: boolean;
}) => void;

/** A claimed delivery with what its attempt needs: its endpoint's address and secrets, and its event. */
interface Claimed {
  endpoint_id: string;
  event_id: string;
  attempts: number | string;
  url: string;
  workspace_id: string;
  /** `approval_policy` for the notice endpoint: today's notice bodies, v0-signed (`ctx.notices`). */
  managed_by: string | null;
  wrapped_key: string | null;
  ciphertext: string | null;
  previous_wrapped_key: string | null;
  previous_ciphertext: string | null;
  previous_expires_at: number | string | null;
  type: string;
  created_at: number | string;
  data: unknown;
}

/** The most deliveries one pass claims (and attempts at once); a full pass is followed by another. */
const BATCH = 100;

/**
 * Delivers what is due, in passes until one claims less than a batch. A pass claims up to a batch of
 * pending deliveries of enabled endpoints (others' passes skip rows a claim holds; `for update skip
 * locked`), pushing each one's next attempt past the claim so a killed deliverer's rows are taken over when
 * the claim lapses, and reads what each attempt needs in the same statement. A delivery waits while an
 * earlier one of the same resource to the same endpoint is pending: each receiver gets a resource's events
 * in order. The attempts go at once; each one's outcome is recorded as it comes, with the others that came
 * in the same turn (`GroupCommit`: one transaction for many), so a slow receiver delays no other's record.
 */
export async function deliverDueWebhooks(
  ctx: ServiceContext,
  report: WebhookDeliveryReport,
): Promise<number> {
  let delivered = 0;
  for (;;) {
    const claimed = await claimDue(ctx);
    await Promise.all(claimed.map((row) => deliverOne(ctx, row, report)));
    delivered += claimed.length;
    if (claimed.length < BATCH) return delivered;
  }
}

async function claimDue(ctx: ServiceContext): Promise<Claimed[]> {
  const now = ctx.now();
  return resultRows<Claimed>(
    await ctx.db.execute(sql`
      with due as (
        select d.endpoint_id, d.event_id from webhook_deliveries d
        join webhook_endpoints e on e.id = d.endpoint_id and e.enabled
        where d.status = 'pending' and d.next_attempt_at <= ${now}::bigint
          and not exists (
            select 1 from webhook_deliveries p
            where p.endpoint_id = d.endpoint_id and p.resource = d.resource and p.status = 'pending'
              and p.event_id < d.event_id)
        order by d.next_attempt_at
        limit ${BATCH}
        for update of d skip locked
      ),
      claimed as (
        update webhook_deliveries d
        set attempts = d.attempts + 1, next_attempt_at = ${now + CLAIM_MS}::bigint, updated_at = ${now}::bigint
        from due where d.endpoint_id = due.endpoint_id and d.event_id = due.event_id and d.status = 'pending'
        returning d.endpoint_id, d.event_id, d.attempts
      )
      select c.endpoint_id, c.event_id, c.attempts, e.url, e.workspace_id, e.managed_by, e.wrapped_key, e.ciphertext,
        e.previous_wrapped_key, e.previous_ciphertext, e.previous_expires_at, ev.type, ev.created_at, ev.data
      from claimed c
      join webhook_endpoints e on e.id = c.endpoint_id
      join webhook_events ev on ev.id = c.event_id`),
  );
}

/** What one attempt came to. */
interface Outcome {
  status: number | null;
  error: string | null;
  head: string | null;
  latencyMs: number;
}

async function deliverOne(
  ctx: ServiceContext,
  claimed: Claimed,
  report: WebhookDeliveryReport,
): Promise<void> {
  const started = ctx.now();
  const request = await requestOf(ctx, claimed, started);
  const outcome =
    "error" in request
      ? { status: null, error: request.error, head: null, latencyMs: ctx.now() - started }
      : await attempt(ctx, claimed.url, request.headers, request.body, started);
  await settle(ctx, { ...claimed, attempts: Number(claimed.attempts) }, outcome, report);
}

/**
 * What the attempt sends: the Standard Webhooks payload signed with the endpoint's secrets, or for the
 * notice endpoint today's notice (`ctx.notices`, webhooks/notice-format.ts).
 */
async function requestOf(ctx: ServiceContext, claimed: Claimed, started: number): Promise<NoticeRequest> {
  const data = typeof claimed.data === "string" ? JSON.parse(claimed.data) : claimed.data;
  const createdAt = Number(claimed.created_at);
  if (claimed.managed_by !== null) {
    const event = { workspaceId: claimed.workspace_id, eventId: claimed.event_id, type: claimed.type };
    return ctx.notices.request(ctx, { ...event, createdAt, data }, started);
  }
  const body = JSON.stringify(webhookPayload({ id: claimed.event_id, type: claimed.type, createdAt, data }));
  const expires = claimed.previous_expires_at;
  const secrets = signingSecrets(
    ctx.vault,
    {
      id: claimed.endpoint_id,
      workspaceId: claimed.workspace_id,
      wrappedKey: claimed.wrapped_key,
      ciphertext: claimed.ciphertext,
      previousWrappedKey: claimed.previous_wrapped_key,
      previousCiphertext: claimed.previous_ciphertext,
      previousExpiresAt: expires === null ? null : Number(expires),
    },
    started,
  );
  const headers = {
    "content-type": "application/json",
    "user-agent": "fleet-control-plane/webhooks",
    ...signedHeaders(secrets, claimed.event_id, started, body),
  };
  return { body, headers };
}

/** Kept-alive connections to receivers, each pinned to the addresses its host was checked to resolve to. */
const receivers = new PinnedAgentPool();

/** One POST: the address checked again (outside dev mode) and the connection pinned to it. */
async function attempt(
  ctx: ServiceContext,
  url: string,
  headers: Record<string, string>,
  body: string,
  started: number,
): Promise<Outcome> {
  const target = new URL(url);
  const failed = (error: string): Outcome => ({
    status: null,
    error,
    head: null,
    latencyMs: ctx.now() - started,
  });
  let addresses: string[] | null = null;
  if (!ctx.config.devMode) {
    // Public when saved; a name can change what it resolves to since. The connection goes only to the
    // addresses checked now, so it cannot be re-pointed after this check.
    try {
      addresses = await resolvePublic(target.hostname, ctx.resolve ?? systemResolve);
    } catch (error) {
      return failed(error instanceof HostRefused ? "address_not_public" : "address_unresolved");
    }
  }
  try {
    const answer = await postPinnedReading(
      target,
      body,
      headers,
      { addresses, timeoutMs: WEBHOOK_TIMEOUT_MS, agents: receivers },
      RESPONSE_HEAD_BYTES,
    );
    // Text in PostgreSQL holds no NUL: a receiver's answer with one is kept with U+FFFD in its place.
    const head = answer.head.replaceAll("\u0000", "\uFFFD");
    return { status: answer.status, error: null, head, latencyMs: ctx.now() - started };
  } catch (error) {
    const name = (error as Error).name;
    return failed(name === "TimeoutError" || name === "AbortError" ? "timeout" : errorCode(error));
  }
}

/** One attempt's record, for the group commit that writes it with the others of its turn. */
interface Settled {
  id: string;
  endpointId: string;
  eventId: string;
  attempt: number;
  at: number;
  outcome: Outcome;
  status: "succeeded" | "failed" | "pending";
  nextAttemptAt: number;
  gone: boolean;
}

const settlers = new WeakMap<Database, GroupCommit<Settled, true>>();

/**
 * Records the attempt and what it decides, with the other attempts that ended in the same turn (one
 * transaction, `settleMany`): a 2xx ends the delivery; a 410 ends it and disables the endpoint
 * (`disabled_reason` gone); anything else retries after the schedule's next wait, or gives the delivery
 * up after the last attempt, and disables an endpoint failing for days (`failing`).
 */
async function settle(
  ctx: ServiceContext,
  claimed: Claimed & { attempts: number },
  outcome: Outcome,
  report: WebhookDeliveryReport,
): Promise<void> {
  const now = ctx.now();
  const delivered = outcome.status !== null && outcome.status >= 200 && outcome.status < 300;
  const gone = outcome.status === 410;
  const givenUp = !delivered && (gone || claimed.attempts >= WEBHOOK_MAX_ATTEMPTS);
  const status = delivered ? "succeeded" : givenUp ? "failed" : "pending";
  await batchesOf(settlers, ctx, settleMany).store({
    id: `${claimed.endpoint_id}/${claimed.event_id}`,
    endpointId: claimed.endpoint_id,
    eventId: claimed.event_id,
    attempt: claimed.attempts,
    at: now,
    outcome,
    status,
    nextAttemptAt: status === "pending" ? now + retryDelayMs(claimed.attempts) : now,
    gone,
  });
  if (!delivered) {
    const why = outcome.status === null ? (outcome.error ?? "no answer") : `answered ${outcome.status}`;
    report({
      endpointId: claimed.endpoint_id,
      eventId: claimed.event_id,
      attempt: claimed.attempts,
      reason: `${new URL(claimed.url).origin} ${why}`,
      givenUp,
    });
  }
}

/**
 * Writes attempts' records in one transaction: their rows (one statement), their deliveries' next state
 * (one statement, each only while still pending: a delivery deleted or retried meanwhile is left as it
 * is), the endpoints that answered 410 disabled (each audited once), and each endpoint that failed checked for its days of
 * failing (once however many of its attempts failed).
 */
async function settleMany(db: Database, rows: Settled[]): Promise<Map<string, true>> {
  const column = <T>(pick: (row: Settled) => T) => sql.param(rows.map(pick));
  const at = Math.max(...rows.map((row) => row.at));
  await db.transaction(async (tx) => {
    await tx.execute(sql`
      insert into webhook_attempts (endpoint_id, event_id, attempt, at, status, latency_ms, error, response_head)
      select * from unnest(${column((r) => r.endpointId)}::uuid[], ${column((r) => r.eventId)}::uuid[],
        ${column((r) => r.attempt)}::int[], ${column((r) => r.at)}::bigint[],
        ${column((r) => r.outcome.status)}::int[], ${column((r) => r.outcome.latencyMs)}::int[],
        ${column((r) => r.outcome.error)}::text[], ${column((r) => r.outcome.head)}::text[])`);
    await tx.execute(sql`
      update webhook_deliveries d
      set status = u.status, next_attempt_at = u.next_attempt_at, updated_at = u.at
      from unnest(${column((r) => r.endpointId)}::uuid[], ${column((r) => r.eventId)}::uuid[],
        ${column((r) => r.status)}::text[], ${column((r) => r.nextAttemptAt)}::bigint[],
        ${column((r) => r.at)}::bigint[]) as u(endpoint_id, event_id, status, next_attempt_at, at)
      where d.endpoint_id = u.endpoint_id and d.event_id = u.event_id and d.status = 'pending'`);
    await disableGone(tx, [...new Set(rows.filter((row) => row.gone).map((row) => row.endpointId))], at);
    const failing = new Set(
      rows.filter((row) => row.status !== "succeeded" && !row.gone).map((row) => row.endpointId),
    );
    for (const endpointId of failing) await disableIfFailing(tx, endpointId, at);
  });
  return new Map(rows.map((row) => [row.id, true]));
}
