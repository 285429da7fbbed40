import { type Database, jsonbValue, sql } from "@fleet/db";
import { PinnedAgentPool } from "../../runtime/pinned-connect.ts";
import { postPinnedReading } from "../../runtime/pinned-post.ts";
import { HostRefused, resolvePublic, systemResolve } from "../../runtime/public-address.ts";
import type { NoticeRequest, ServiceContext } from "../shared/context.ts";
import { errorCode } from "../shared/errors.ts";
import { batchesOf, type GroupCommit } from "../shared/group-commit.ts";
import { webhookPayload } from "./delivery-rows.ts";
import { disableIfFailing } from "./failing-endpoints.ts";
import { disableGone } from "./gone-endpoints.ts";
import { secretsOf } from "./opened-secrets.ts";
import { retryDelayMs, WEBHOOK_MAX_ATTEMPTS } from "./retry-schedule.ts";
import { signedHeaders } from "./signing.ts";

/** One attempt of a claimed delivery (`delivery.ts` claims): the POST, signed, and its record. */

/** How long a receiver has to answer (its status and the first bytes of its body) before it is a timeout. */
export const WEBHOOK_TIMEOUT_MS = 10_000;

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
export interface Claimed {
  endpoint_id: string;
  event_id: string;
  attempts: number | string;
  url: string;
  workspace_id: string;
  /**
   * The endpoint's sealed secret; null exactly for the notice endpoint (`managed_by`, a check ties the two),
   * which has none of its own: its attempts are today's notices, signed by `ctx.notices`.
   */
  wrapped_key: string | null;
  ciphertext: string | null;
  previous_wrapped_key: string | null;
  previous_ciphertext: string | null;
  previous_expires_at: number | string | null;
  type: string;
  created_at: number | string;
  data: Record<string, unknown> | string;
}

/** A claimed delivery to an endpoint with a secret of its own: one a person or program made. */
export type SealedClaim = Claimed & { wrapped_key: string; ciphertext: string };

/** What one attempt came to. */
interface Outcome {
  status: number | null;
  error: string | null;
  head: string | null;
  latencyMs: number;
}

export async function deliverOne(
  ctx: ServiceContext,
  claimed: Claimed,
  report: WebhookDeliveryReport,
  abandoned: () => boolean,
): Promise<void> {
  const started = ctx.now();
  const request = await requestOf(ctx, claimed, started);
  const outcome =
    "error" in request
      ? { status: null, error: request.error, head: null, latencyMs: ctx.now() - started }
      : await attempt(ctx, claimed.url, request.headers, request.body, started);
  if (abandoned()) return;
  await settle(ctx, { ...claimed, attempts: Number(claimed.attempts) }, outcome, report);
}

/**
 * What the attempt sends: the Standard Webhooks payload signed with the endpoint's secrets, or, to the
 * notice endpoint, today's notice (`ctx.notices`, webhooks/notice-format.ts).
 */
async function requestOf(ctx: ServiceContext, claimed: Claimed, started: number): Promise<NoticeRequest> {
  const { wrapped_key: wrappedKey, ciphertext } = claimed;
  const event = {
    workspaceId: claimed.workspace_id,
    eventId: claimed.event_id,
    type: claimed.type,
    createdAt: Number(claimed.created_at),
    data: jsonbValue(claimed.data),
  };
  if (wrappedKey === null || ciphertext === null) return ctx.notices.request(ctx, event, started);
  // Written out from the parsed data, the same bytes on every attempt: the stored jsonb text spliced in would
  // be other bytes (`", "`, numbers as stored), and compacting it costs more than the parse ("Delivery").
  const body = JSON.stringify(webhookPayload({ id: event.eventId, ...event }));
  const secrets = secretsOf(ctx.vault, { ...claimed, wrapped_key: wrappedKey, ciphertext }, started);
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
