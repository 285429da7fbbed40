import { jsonbValue, resultRows, sql, type Tx } from "@fleet/db";
import type { ServiceContext } from "../shared/context.ts";
import { recordWebhookEvent } from "../webhook-endpoints/outbox.ts";
import { anySubscriber } from "../webhook-endpoints/subscribers.ts";
import { ONLINE_WINDOW_MS } from "./policy.ts";
import { recordRunnerEvent } from "./runner-events.ts";

/** The offline sweep's pg-boss queue and cadence: a lapse is found within 15 s of the online window's end. */
export const RUNNER_OFFLINE_QUEUE = "runner-offline-sweep";
export const RUNNER_OFFLINE_EVERY_MS = 15_000;

/** How far before its last heartbeat a runner's leases make a fleet one it served, and is told of its lapse. */
export const RUNNER_SERVED_WINDOW_MS = 24 * 60 * 60 * 1000;

/** How many lapsed runners one sweep marks; a larger backlog is taken by the next sweeps. */
const SWEEP_BATCH = 200;

interface Lapsed {
  id: string;
  labels: string[] | string;
  last_heartbeat_at: number | string;
  offline_at: number | string;
}

/**
 * Marks runners that went quiet (no heartbeat within the online window, not revoked) as offline, each lapse
 * once: a conditional update (`offline_at is null`) with concurrent sweepers skipping rows another one holds,
 * and a heartbeat racing it either commits first (the row no longer matches) or finds the mark and clears
 * it. With the mark, in the same transaction: the runner's `runner_offline` event at the moment it went
 * quiet, and `runner.offline` in the outbox of each fleet it served. Answers the runners it marked.
 */
export async function sweepOfflineRunners(ctx: ServiceContext): Promise<string[]> {
  const now = ctx.now();
  const quietSince = now - ONLINE_WINDOW_MS;
  const { marked, written } = await ctx.db.transaction(async (tx) => {
    const rows = resultRows<Lapsed>(
      await tx.execute(sql`
      with due as (
        select id from runners
        where offline_at is null and revoked_at is null and last_heartbeat_at < ${quietSince}::bigint
        order by last_heartbeat_at
        limit ${SWEEP_BATCH}
        for update skip locked
      )
      update runners r
      set offline_at = r.last_heartbeat_at + ${ONLINE_WINDOW_MS}::bigint
      from due
      where r.id = due.id and r.offline_at is null and r.revoked_at is null
        and r.last_heartbeat_at < ${quietSince}::bigint
      returning r.id, r.labels, r.last_heartbeat_at, r.offline_at`),
    );
    for (const row of rows) await recordRunnerEvent(tx, row.id, "runner_offline", Number(row.offline_at));
    return { marked: rows.map((row) => row.id), written: await offlineWebhookEvents(tx, rows, now) };
  });
  if (written) ctx.webhookOutbox?.kick();
  return marked;
}

interface HeldLease {
  lease_id: string;
  event_id: string;
  expires_at: number | string;
}

interface Served {
  runner_id: string;
  fleet_id: string;
  workspace_id: string;
  tenant_id: string;
  held: HeldLease[] | string;
}

/**
 * `runner.offline` for each fleet the lapsed runners served (held a lease of in the day before their last
 * heartbeat, or still hold one), each in its own workspace's outbox with that fleet's leases only: a runner
 * serves many tenants, and none sees another's work. One read finds the fleets, only in workspaces with
 * an endpoint that would take the event, so a runner nobody watches costs that read alone.
 */
async function offlineWebhookEvents(tx: Tx, lapsed: Lapsed[], now: number): Promise<boolean> {
  if (lapsed.length === 0) return false;
  const byId = new Map(lapsed.map((row) => [row.id, row]));
  const served = resultRows<Served>(
    await tx.execute(sql`
      select l.runner_id, l.fleet_id, l.workspace_id, w.tenant_id,
        coalesce(json_agg(json_build_object('lease_id', l.id, 'event_id', l.event_id, 'expires_at', l.expires_at)
          order by l.created_at) filter (where l.status = 'running'), '[]') as held
      from leases l
      join runners r on r.id = l.runner_id
      join workspaces w on w.id = l.workspace_id
      where l.runner_id = any(${`{${lapsed.map((row) => row.id).join(",")}}`}::uuid[])
        and (l.created_at >= r.last_heartbeat_at - ${RUNNER_SERVED_WINDOW_MS}::bigint or l.status = 'running')
        and ${anySubscriber({ workspace: sql`l.workspace_id`, type: sql`'runner.offline'`, fleet: sql`l.fleet_id` })}
      group by l.runner_id, l.fleet_id, l.workspace_id, w.tenant_id
      order by l.runner_id, l.fleet_id`),
  );
  let written = false;
  for (const fleet of served) {
    const runner = byId.get(fleet.runner_id)!;
    const held = jsonbValue<HeldLease[]>(fleet.held);
    const recorded = await recordWebhookEvent(
      tx,
      {
        tenantId: fleet.tenant_id,
        workspaceId: fleet.workspace_id,
        fleetId: fleet.fleet_id,
        type: "runner.offline",
        resource: `runner:${fleet.runner_id}`,
        readPath: `/v1/workspaces/${fleet.workspace_id}/fleets/${fleet.fleet_id}`,
        at: now,
      },
      () => ({
        runner_id: runner.id,
        labels: jsonbValue(runner.labels),
        last_heartbeat_at: Number(runner.last_heartbeat_at),
        offline_at: Number(runner.offline_at),
        fleet_id: fleet.fleet_id,
        held_leases: held.map((lease) => ({
          lease_id: lease.lease_id,
          event_id: lease.event_id,
          expires_at: Number(lease.expires_at),
        })),
      }),
    );
    written = recorded || written;
  }
  return written;
}
