import { literalLimit, resultRows, sql } from "@fleet/db";
import type { ServiceContext } from "../shared/context.ts";
import {
  type Claimed,
  deliverOne,
  WEBHOOK_TIMEOUT_MS,
  type WebhookDeliveryReport,
} from "./delivery-attempt.ts";
import { DeliveryStatistics } from "./delivery-statistics.ts";
import { FAN_OUT_MAX, fanOutEvents } from "./fan-out.ts";

export type { WebhookDeliveryReport } from "./delivery-attempt.ts";

/** The deliverer's pg-boss queue and cadence: a pass a second picks up retries and any missed kick. */
export const WEBHOOK_DELIVERY_QUEUE = "webhook-delivery";
export const WEBHOOK_DELIVERY_EVERY_MS = 1_000;

/** How long a claimed delivery is held by its deliverer before another may take it again. */
const CLAIM_MS = WEBHOOK_TIMEOUT_MS + 50_000;

/** The most deliveries one instance's deliverer keeps in flight: attempts sent and not yet recorded. */
export const WEBHOOK_WINDOW = 400;

/** The most deliveries one claim takes. */
const CLAIM_MAX = 128;

/**
 * While a backlog is claimed (the last claim came back full), the room a claim waits for: fewer, larger
 * claims rather than one statement per attempt that ends.
 */
const CLAIM_MIN = 32;

/** How long stopping waits for the attempts in flight and their records before abandoning the rest. */
export const WEBHOOK_STOP_WAIT_MS = 5_000;

/**
 * One instance's deliverer: a window of up to `window` deliveries in flight, claimed again as soon as room
 * frees rather than pass by pass. A claim takes up to 128 pending deliveries of enabled endpoints (the
 * room rounded down to a power of two, `claimSize`), with `for update skip locked` (other deliverers skip
 * rows a claim holds), pushes each one's next attempt past the claim so a killed deliverer's rows are taken
 * over when the claim lapses, and reads what each attempt needs in the same statement. A delivery waits
 * while an earlier one of the same resource to the same endpoint is pending, in flight included (a claimed
 * delivery stays `pending` until its attempt is recorded): each receiver gets a resource's events in order.
 * That check is a scalar subquery (the first pending event id of the endpoint and resource), which
 * PostgreSQL runs per candidate as one probe of `webhook_deliveries_order_idx`; as `not exists`, a cached
 * plan made while few deliveries were pending scanned every pending row of the index for each candidate,
 * and a backlog of 7,000 made a claim take 20–330 ms. For the same reason the claim's update finds its
 * rows by their place in the table (`ctid`: they are locked, so they stay where they are), a scan no plan
 * can choose against: joined by key and status, a stale plan scanned the pending index for each row, and
 * by key alone a fresh one read the whole table (20,000 rows in a burst) for every claim.
 * Each attempt's outcome is recorded as it comes, with the others that came in the same turn
 * (`GroupCommit`: one transaction for many), and frees its room at once: a slow receiver holds one slot of
 * the window, never the others.
 *
 * Before a claim it keeps the table's statistics in step with a backlog (`DeliveryStatistics`): a claim
 * planned for a handful of pending rows would read all of a burst for each one it takes.
 *
 * It runs while there is work: a kick (an act that wrote the outbox, the periodic pass) starts it, and it
 * stops once a claim finds nothing due and nothing is in flight. After a claim that found less than it
 * asked for, it claims again when an attempt ends (a resource's next delivery may have become due) or on a
 * kick. Each kick first fans out the events the acts wrote alone (`fanOutEvents`), window full or not, so
 * their deliveries are written (and show in the endpoints' logs) at once.
 */
export class WebhookDeliverer {
  private readonly inFlight = new Set<Promise<void>>();
  private running: Promise<void> | null = null;
  private again = false;
  /** Whether events may wait to be fanned out: a kick came, or the last fan-out took all it could. */
  private fanOut = false;
  private stopped = false;
  private abandoned = false;
  private wake: (() => void) | null = null;
  /** Attempts made (each recorded, or abandoned at stop). */
  delivered = 0;
  readonly statistics: DeliveryStatistics;

  constructor(
    private readonly ctx: ServiceContext,
    private readonly report: WebhookDeliveryReport,
    private readonly onError: (error: unknown) => void,
    private readonly window = WEBHOOK_WINDOW,
  ) {
    this.statistics = new DeliveryStatistics(ctx.db);
  }

  /** Claims soon: at once when idle, after the claim under way otherwise. Nothing once stopped. */
  kick(): void {
    if (this.stopped) return;
    this.again = true;
    this.fanOut = true;
    this.wake?.();
    this.running ??= this.fill()
      .catch((error: unknown) => this.onError(error))
      .finally(() => {
        this.running = null;
      });
  }

  /** Kicks, and resolves once nothing is due and nothing is in flight (or the deliverer stopped). */
  async drain(): Promise<number> {
    this.kick();
    while (this.running !== null) await this.running;
    return this.delivered;
  }

  /**
   * Claims nothing more, then waits for the attempts in flight and their records, at most
   * `WEBHOOK_STOP_WAIT_MS`; attempts still out then are abandoned: their outcomes are not recorded (the
   * database may be closing), and their claims lapse and are taken over by another instance (at least once).
   */
  async stop(): Promise<void> {
    this.stopped = true;
    this.wake?.();
    await this.running;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.allSettled([...this.inFlight]),
      new Promise((resolve) => {
        timer = setTimeout(resolve, WEBHOOK_STOP_WAIT_MS);
      }),
    ]);
    clearTimeout(timer);
    this.abandoned = true;
  }

  private async fill(): Promise<void> {
    let full = false;
    while (!this.stopped) {
      if (this.fanOut) {
        this.fanOut = false;
        // A failed fan-out is reported and the claim goes on: deliveries already written keep going, and
        // the next kick (the periodic pass's, at the latest) fans out again.
        const taken = await fanOutEvents(this.ctx).catch((error: unknown) => {
          this.onError(error);
          return 0;
        });
        // A full batch: more may wait, so fan out again after this claim, and claim after that.
        if (taken === FAN_OUT_MAX) this.fanOut = this.again = true;
      }
      const room = Math.min(this.window - this.inFlight.size, CLAIM_MAX);
      if (room <= 0 || (full && room < CLAIM_MIN && this.inFlight.size > 0)) {
        await this.change();
        continue;
      }
      this.again = false;
      // Statistics that cannot be kept up (a role that may not analyze) cost plans, never deliveries.
      await this.statistics.keepUp().catch((error: unknown) => this.onError(error));
      const size = claimSize(room);
      const claimed = await claimDue(this.ctx, size);
      for (const row of claimed) this.start(row);
      full = claimed.length === size;
      if (full || this.again) continue;
      if (this.inFlight.size === 0) return;
      await this.change();
    }
  }

  private start(row: Claimed): void {
    const attempt: Promise<void> = deliverOne(this.ctx, row, this.report, () => this.abandoned)
      .catch((error: unknown) => this.onError(error))
      .finally(() => {
        this.inFlight.delete(attempt);
        this.delivered += 1;
        this.wake?.();
      });
    this.inFlight.add(attempt);
  }

  /** Resolves when an attempt ends, a kick comes, or the deliverer stops. */
  private change(): Promise<void> {
    return new Promise((resolve) => {
      this.wake = () => {
        this.wake = null;
        resolve();
      };
    });
  }
}

/**
 * Delivers what is due with a deliverer of its own, until nothing is due and nothing in flight: for a
 * caller that runs one pass to its end (tests with a clock of their own). Its first failure rejects.
 */
export async function deliverDueWebhooks(
  ctx: ServiceContext,
  report: WebhookDeliveryReport,
): Promise<number> {
  let failure: { error: unknown } | null = null;
  const deliverer = new WebhookDeliverer(ctx, report, (error) => {
    failure ??= { error };
  });
  const delivered = await deliverer.drain();
  if (failure !== null) throw (failure as { error: unknown }).error;
  return delivered;
}

/**
 * How many deliveries a claim with `room` takes: the room rounded down to a power of two, so the claim's
 * texts stay few (its limit is written into the statement: `literalLimit`).
 */
function claimSize(room: number): number {
  return 2 ** Math.floor(Math.log2(room));
}

async function claimDue(ctx: ServiceContext, limit: number): Promise<Claimed[]> {
  const now = ctx.now();
  return resultRows<Claimed>(
    await ctx.db.execute(sql`
      with due as (
        select d.ctid from webhook_deliveries d
        join webhook_endpoints e on e.id = d.endpoint_id and e.enabled
        where d.status = 'pending' and d.next_attempt_at <= ${now}::bigint
          and d.event_id = (
            select p.event_id from webhook_deliveries p
            where p.endpoint_id = d.endpoint_id and p.resource = d.resource and p.status = 'pending'
            order by p.event_id limit 1)
        order by d.next_attempt_at
        ${literalLimit(limit)}
        for update of d skip locked
      ),
      claimed as (
        update webhook_deliveries d
        set attempts = d.attempts + 1, next_attempt_at = ${now + CLAIM_MS}::bigint, updated_at = ${now}::bigint
        where d.ctid = any(array(select ctid from due)) and d.status = 'pending'
        returning d.endpoint_id, d.event_id, d.attempts
      )
      select c.endpoint_id, c.event_id, c.attempts, e.url, e.workspace_id, e.wrapped_key, e.ciphertext,
        e.previous_wrapped_key, e.previous_ciphertext, e.previous_expires_at, ev.type, ev.created_at, ev.data
      from claimed c
      join webhook_endpoints e on e.id = c.endpoint_id
      join webhook_events ev on ev.id = c.event_id`),
  );
}
