import { and, eq, fleetEvents, fleets, schedules, sql } from "@fleet/db";
import { newId } from "../../runtime/ids.ts";
import type { FireData } from "../../runtime/schedule-engine.ts";
import { eventReceivedWebhookEvent } from "../fleet-events/event-webhooks.ts";
import type { ServiceContext } from "../shared/context.ts";
import { eventReceived } from "../shared/frames.ts";
import { effective, type ScheduleRow } from "./schedule-view.ts";
import { markSyncFailed, SCHEDULE_DRIFTED } from "./schedule-webhooks.ts";

function describe(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.length > 500 ? `${text.slice(0, 497)}...` : text;
}

/**
 * Brings the scheduler in line with one row as it is now: registered when active, unregistered when
 * paused, unregistered then removed when being deleted. The outcome is recorded only if the row is
 * still at the generation pushed, so a slow answer about an older version cannot overwrite a newer one.
 */
export async function pushSchedule(ctx: ServiceContext, scheduleId: string): Promise<void> {
  // Called after the change it registers has committed: a database that fails now must not turn that
  // stored change into a refusal. The row stays `syncing` (or `failed`), and the reconciler converges it.
  await pushStored(ctx, scheduleId).catch(() => {});
}

async function pushStored(ctx: ServiceContext, scheduleId: string): Promise<void> {
  const [row] = await ctx.db.select().from(schedules).where(eq(schedules.id, scheduleId));
  if (row === undefined) return;
  const sameGeneration = and(eq(schedules.id, row.id), eq(schedules.generation, row.generation));
  try {
    const engine = ctx.scheduler;
    if (engine === null) throw new Error("no scheduler runs in this process");
    const running = effective(row);
    if (running.status === "active") {
      const data = { schedule_id: row.id, generation: row.generation, registered_at: ctx.now() };
      await engine.register(row.id, running.cron, running.timezone, data);
      await sendNextAhead(ctx, data, running.cron, running.timezone);
    } else {
      await engine.unregister(row.id);
    }
    if (running.status === "deleting") {
      await ctx.db.delete(schedules).where(sameGeneration);
      return;
    }
    await ctx.db.update(schedules).set({ sync: "synced", lastError: null }).where(sameGeneration);
  } catch (error) {
    ctx.metrics?.schedulerSyncFailed();
    await markSyncFailed(ctx, row.id, row.generation, describe(error));
  }
}

/**
 * Sends the schedule's next instant ahead (see `ScheduleEngine.sendAhead`). Best effort: when it cannot,
 * the cron registration fires that instant a little later, so nothing is recorded.
 */
async function sendNextAhead(ctx: ServiceContext, data: FireData, cron: string, timezone: string) {
  const engine = ctx.scheduler;
  const next = engine?.nextFire(cron, timezone, new Date(ctx.now())) ?? null;
  if (engine === null || next === null) return;
  await engine.sendAhead(data, next).catch(() => {});
}

/**
 * Turns a fire into a fleet event for runners to lease. Fires of a schedule that is gone, paused or
 * being deleted, or of a fleet that is not active, are dropped; a `once` schedule retires after it.
 */
export async function fireSchedule(ctx: ServiceContext, data: FireData, sentAt: number): Promise<void> {
  const now = ctx.now();
  const fired = await ctx.db.transaction(async (tx) => {
    const [found] = await tx
      .select({ schedule: schedules, fleetStatus: fleets.status, tenantId: fleets.tenantId })
      .from(schedules)
      .innerJoin(fleets, eq(fleets.id, schedules.fleetId))
      .where(eq(schedules.id, data.schedule_id))
      .for("update", { of: schedules });
    if (found === undefined) return null;
    const row: ScheduleRow = found.schedule;
    const running = effective(row);
    if (running.status !== "active" || found.fleetStatus !== "active") return null;
    // A fire of an earlier version of the schedule (sent ahead before an edit) is not this version's.
    if (data.generation !== row.generation) return null;
    // pg-boss sends an instant that passed up to a minute before a schedule was registered; that
    // instant belongs to no version of this schedule, so it is dropped.
    // The instant this fire is for: the latest at or before pg-boss sent it (within the minute it treats
    // an instant as due), read from the job, not from now, so every delivery of it names the same one.
    const instant = ctx.scheduler?.previousFire(running.cron, running.timezone, sentAt) ?? null;
    if (instant !== null && data.registered_at !== undefined && instant < data.registered_at - 1_000)
      return null;
    // pg-boss delivers a fire at least once: it retries a whole batch when one job in it failed after
    // others had committed, and redelivers (after its 15-minute expiry) a job whose worker died before
    // completing it. The instant last fired is kept on the row (locked above): a second delivery of an
    // instant, or of an earlier one, wakes nobody.
    if (instant !== null && row.lastFiredAt !== null && instant <= row.lastFiredAt) return null;
    const event = {
      workspaceId: row.workspaceId,
      fleetId: row.fleetId,
      eventId: newId(now),
      eventType: "cron" as const,
      actor: `cron:${row.id}`,
      message: running.message,
      webhookId: newId(now),
    };
    await tx.insert(fleetEvents).values({
      id: event.eventId,
      workspaceId: row.workspaceId,
      fleetId: row.fleetId,
      actor: `cron:${row.id}`,
      eventType: "cron",
      requestJson: JSON.stringify({ message: running.message, schedule_id: row.id }),
      status: "received",
      createdAt: now,
      updatedAt: now,
    });
    await eventReceivedWebhookEvent(tx, { ...event, tenantId: found.tenantId }, now, event.webhookId);
    const lastFiredAt = instant ?? now;
    if (!row.once) {
      await tx.update(schedules).set({ lastFiredAt }).where(eq(schedules.id, row.id));
      return { retired: null, recipe: running, event };
    }
    // Retired: never fires again. The row goes once the scheduler has forgotten it.
    await tx
      .update(schedules)
      .set({
        status: "deleting",
        sync: "syncing",
        generation: sql`${schedules.generation} + 1`,
        lastFiredAt,
        updatedAt: now,
      })
      .where(eq(schedules.id, row.id));
    return { retired: row.id, recipe: null, event };
  });
  if (fired === null) return;
  ctx.tracing?.eventReceived(fired.event.eventId, "cron");
  ctx.work.announce();
  eventReceived(ctx, fired.event);
  // Its `event.received` may be in the outbox: deliver now rather than at the next pass.
  ctx.webhookOutbox?.kick();
  if (fired.retired !== null) await pushSchedule(ctx, fired.retired);
  else await sendNextAhead(ctx, data, fired.recipe.cron, fired.recipe.timezone);
}

/** Rows not in line and not being pushed right now: failed ones, and pushes that never reported back. */
async function rowsToConverge(ctx: ServiceContext): Promise<ScheduleRow[]> {
  return ctx.db
    .select()
    .from(schedules)
    .where(
      sql`${schedules.sync} = 'failed' or (${schedules.sync} = 'syncing' and ${schedules.updatedAt} < ${ctx.now() - 15_000})`,
    );
}

/**
 * One reconciler pass: retries rows that are not in line, re-registers active rows the scheduler lacks
 * or holds at another version (drift), and unregisters schedules it holds that no active row wants
 * (orphans). Safe to run on every instance at once: each step is idempotent.
 */
export async function reconcileSchedules(ctx: ServiceContext): Promise<void> {
  const engine = ctx.scheduler;
  if (engine === null || !engine.available) return;
  for (const row of await rowsToConverge(ctx)) await pushSchedule(ctx, row.id);
  const registered = new Map((await engine.registered()).map((entry) => [entry.key, entry]));
  const rows = await ctx.db.select().from(schedules);
  const wanted = new Set<string>();
  for (const row of rows) {
    const running = effective(row);
    if (running.status !== "active") continue;
    wanted.add(row.id);
    const entry = registered.get(row.id);
    const inLine =
      entry !== undefined &&
      entry.cron === running.cron &&
      entry.timezone === running.timezone &&
      entry.data?.generation === row.generation;
    if (!inLine && row.sync === "synced") {
      await markSyncFailed(ctx, row.id, row.generation, SCHEDULE_DRIFTED, { tell: false });
      await pushSchedule(ctx, row.id);
    }
  }
  for (const key of registered.keys()) {
    if (!wanted.has(key) && !rows.some((row) => row.id === key && row.sync === "syncing")) {
      await engine.unregister(key).catch(() => {});
    }
  }
}
