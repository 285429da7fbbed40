import {
  and,
  eq,
  resultRows,
  sql,
  webhookAttempts,
  webhookDeliveries,
  webhookEndpoints,
  webhookEvents,
} from "@fleet/db";
import { postPinnedReading } from "../../runtime/pinned-post.ts";
import { HostRefused, resolvePublic, systemResolve } from "../../runtime/public-address.ts";
import type { ServiceContext } from "../shared/context.ts";
import { errorCode } from "../shared/errors.ts";
import { webhookPayload } from "./delivery-rows.ts";
import { signingSecrets } from "./endpoint-rows.ts";
import { disableIfFailing } from "./failing-endpoints.ts";
import { signedHeaders } from "./signing.ts";

/** The deliverer's pg-boss queue and cadence: a pass a second picks up retries and any missed kick. */
export const WEBHOOK_DELIVERY_QUEUE = "webhook-delivery";
export const WEBHOOK_DELIVERY_EVERY_MS = 1_000;

/** How long a receiver has to answer (its status and the first bytes of its body) before it is a timeout. */
export const WEBHOOK_TIMEOUT_MS = 10_000;

/**
 * The wait after each failed attempt, before jitter: 5 s, 1 min, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h,
 * 20 h. Eleven attempts over about 71.6 hours (three days); the eleventh failure gives the delivery up.
 */
export const WEBHOOK_RETRY_DELAYS_MS = [
  5_000, 60_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 50_400_000, 72_000_000, 72_000_000,
] as const;
export const WEBHOOK_MAX_ATTEMPTS = WEBHOOK_RETRY_DELAYS_MS.length + 1;

/** Each wait is spread by up to a fifth either way, so receivers that failed together are not retried together. */
const JITTER = 0.2;

/** How long a claimed delivery is held by its deliverer before another pass may take it again. */
const CLAIM_MS = WEBHOOK_TIMEOUT_MS + 50_000;

/** How much of an answer's body an attempt keeps. */
export const RESPONSE_HEAD_BYTES = 1024;

const BATCH = 50;

/** The wait after failed attempt `attempt` (1-based), jittered; `random` in [0, 1). */
export function retryDelayMs(attempt: number, random: number = Math.random()): number {
  const base = WEBHOOK_RETRY_DELAYS_MS[Math.min(attempt, WEBHOOK_RETRY_DELAYS_MS.length) - 1]!;
  return Math.round(base * (1 - JITTER + 2 * JITTER * random));
}

/** Told about an attempt that did not end its delivery: never a secret or a payload, the URL's origin only. */
export type WebhookDeliveryReport = (failure: {
  endpointId: string;
  eventId: string;
  attempt: number;
  reason: string;
  givenUp: boolean;
}) => void;

interface Claimed {
  endpoint_id: string;
  event_id: string;
  attempts: number;
}

/**
 * Delivers what is due: claims up to a batch of pending deliveries of enabled endpoints (others' passes
 * skip rows a claim holds; `for update skip locked`), pushing each one's next attempt past the claim so a
 * killed deliverer's rows are taken over when the claim lapses. A delivery waits while an earlier one of
 * the same resource to the same endpoint is pending: each receiver gets a resource's events in order.
 */
export async function deliverDueWebhooks(
  ctx: ServiceContext,
  report: WebhookDeliveryReport,
): Promise<number> {
  const now = ctx.now();
  const claimed = resultRows<Claimed>(
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
      )
      update webhook_deliveries d
      set attempts = d.attempts + 1, next_attempt_at = ${now + CLAIM_MS}::bigint, updated_at = ${now}::bigint
      from due where d.endpoint_id = due.endpoint_id and d.event_id = due.event_id and d.status = 'pending'
      returning d.endpoint_id, d.event_id, d.attempts`),
  );
  await Promise.all(
    claimed.map((row) => deliverOne(ctx, { ...row, attempts: Number(row.attempts) }, report)),
  );
  return claimed.length;
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
  const [found] = await ctx.db
    .select({ endpoint: webhookEndpoints, event: webhookEvents })
    .from(webhookDeliveries)
    .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
    .innerJoin(webhookEvents, eq(webhookEvents.id, webhookDeliveries.eventId))
    .where(
      and(
        eq(webhookDeliveries.endpointId, claimed.endpoint_id),
        eq(webhookDeliveries.eventId, claimed.event_id),
      ),
    );
  if (found === undefined) return; // the endpoint was deleted meanwhile
  const { endpoint, event } = found;
  const started = ctx.now();
  const body = JSON.stringify(webhookPayload(event));
  const outcome = await attempt(ctx, endpoint, event.id, body, started);
  await settle(ctx, claimed, outcome, report, new URL(endpoint.url).origin);
}

/** One POST: the address checked again (outside dev mode) and the connection pinned to it. */
async function attempt(
  ctx: ServiceContext,
  endpoint: typeof webhookEndpoints.$inferSelect,
  eventId: string,
  body: string,
  started: number,
): Promise<Outcome> {
  const target = new URL(endpoint.url);
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
  const headers = {
    "content-type": "application/json",
    "user-agent": "fleet-control-plane/webhooks",
    ...signedHeaders(signingSecrets(ctx.vault, endpoint, started), eventId, started, body),
  };
  try {
    const answer = await postPinnedReading(
      target,
      body,
      headers,
      { addresses, timeoutMs: WEBHOOK_TIMEOUT_MS },
      RESPONSE_HEAD_BYTES,
    );
    return { status: answer.status, error: null, head: answer.head, latencyMs: ctx.now() - started };
  } catch (error) {
    const name = (error as Error).name;
    return failed(name === "TimeoutError" || name === "AbortError" ? "timeout" : errorCode(error));
  }
}

/**
 * Records the attempt and what it decides, in one transaction: a 2xx ends the delivery; a 410 ends it and
 * disables the endpoint (`disabled_reason` gone); anything else retries after the schedule's next wait, or
 * gives the delivery up after the last attempt, and disables an endpoint failing for days (`failing`).
 */
async function settle(
  ctx: ServiceContext,
  claimed: Claimed,
  outcome: Outcome,
  report: WebhookDeliveryReport,
  origin: string,
): Promise<void> {
  const now = ctx.now();
  const delivered = outcome.status !== null && outcome.status >= 200 && outcome.status < 300;
  const gone = outcome.status === 410;
  const givenUp = !delivered && (gone || claimed.attempts >= WEBHOOK_MAX_ATTEMPTS);
  const status = delivered ? "succeeded" : givenUp ? "failed" : "pending";
  await ctx.db.transaction(async (tx) => {
    await tx.insert(webhookAttempts).values({
      endpointId: claimed.endpoint_id,
      eventId: claimed.event_id,
      attempt: claimed.attempts,
      at: now,
      status: outcome.status,
      latencyMs: outcome.latencyMs,
      error: outcome.error,
      responseHead: outcome.head,
    });
    await tx
      .update(webhookDeliveries)
      .set({
        status,
        nextAttemptAt: status === "pending" ? now + retryDelayMs(claimed.attempts) : now,
        updatedAt: now,
      })
      .where(
        and(
          eq(webhookDeliveries.endpointId, claimed.endpoint_id),
          eq(webhookDeliveries.eventId, claimed.event_id),
          eq(webhookDeliveries.status, "pending"),
        ),
      );
    if (gone) {
      await tx
        .update(webhookEndpoints)
        .set({ enabled: false, disabledReason: "gone", updatedAt: now })
        .where(eq(webhookEndpoints.id, claimed.endpoint_id));
    } else if (!delivered) {
      await disableIfFailing(tx, claimed.endpoint_id, now);
    }
  });
  if (!delivered) {
    const why = outcome.status === null ? (outcome.error ?? "no answer") : `answered ${outcome.status}`;
    report({
      endpointId: claimed.endpoint_id,
      eventId: claimed.event_id,
      attempt: claimed.attempts,
      reason: `${origin} ${why}`,
      givenUp,
    });
  }
}
