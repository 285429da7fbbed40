import { Problem } from "@fleet/contracts";
import {
  type AssignedPolicy,
  and,
  count,
  type Database,
  eq,
  fleets,
  inArray,
  runnerEvents,
  runners,
  type SQL,
  type Tx,
} from "@fleet/db";
import { mintSecret, RUNNER_TOKEN_PREFIX, sha256Hex } from "../../auth/tokens.ts";
import { newId } from "../../runtime/ids.ts";
import { type Actor, recordAudit } from "../shared/audit.ts";
import { notifyPrincipalChange, type ServiceContext } from "../shared/context.ts";
import { keysetPage } from "../shared/keyset.ts";
import { degradedVerdict } from "./policy.ts";
import { runnerView, runnerViews } from "./runner-view.ts";

type RunnerEventType = (typeof runnerEvents.$inferInsert)["eventType"];

export async function recordRunnerEvent(
  db: Database | Tx,
  runnerId: string,
  eventType: RunnerEventType,
  at: number,
  detail: Record<string, unknown> = {},
): Promise<void> {
  await db.insert(runnerEvents).values({ id: newId(at), runnerId, eventType, detail, createdAt: at });
}

function runnerNotFound(id: string): Problem {
  return new Problem("UZ-RUN-014", { detail: `No runner ${id}.` });
}

function checkAssignable(ctx: ServiceContext, policy: AssignedPolicy): void {
  if (policy.sandbox_tier === "dev_none" && !ctx.config.devMode) {
    throw new Problem("UZ-RUN-016", {
      detail: "dev_none is assignable only when the service runs in dev mode (FLEET_DEV_MODE=true).",
    });
  }
}

/** Runner administration is operator-plane: its audit rows belong to no tenant. */
function auditRunner(
  tx: Tx,
  actor: Actor,
  at: number,
  action: string,
  id: string,
  details: Record<string, unknown>,
) {
  return recordAudit(tx, {
    actor,
    at,
    tenantId: null,
    workspaceId: null,
    action,
    target: `runner:${id}`,
    details,
  });
}

export async function enrollRunner(
  ctx: ServiceContext,
  actor: Actor,
  input: { host_id: string; assigned_policy: AssignedPolicy; labels: string[] },
) {
  checkAssignable(ctx, input.assigned_policy);
  const now = ctx.now();
  const id = newId(now);
  const token = mintSecret(RUNNER_TOKEN_PREFIX);
  const labels = [...new Set(input.labels)];
  const verdict = degradedVerdict(input.assigned_policy, null);
  await ctx.db.transaction(async (tx) => {
    await tx.insert(runners).values({
      id,
      hostId: input.host_id,
      tokenHash: sha256Hex(token),
      labels,
      assignedPolicy: input.assigned_policy,
      degraded: verdict.degraded,
      degradedReason: verdict.reason,
      createdAt: now,
      updatedAt: now,
    });
    await recordRunnerEvent(tx, id, "runner_registered", now, { host_id: input.host_id });
    await recordRunnerEvent(tx, id, "runner_policy_assigned", now, {
      assigned_policy: input.assigned_policy,
    });
    await auditRunner(tx, actor, now, "runner.enroll", id, {
      host_id: input.host_id,
      assigned_policy: input.assigned_policy,
    });
  });
  return {
    runner_id: id,
    runner_token: token,
    host_id: input.host_id,
    labels,
    assigned_policy: input.assigned_policy,
    created_at: now,
  };
}

export async function listRunners(ctx: ServiceContext, input: { starting_after?: string; limit: number }) {
  const now = ctx.now();
  const page = await keysetPage({
    bind: "runners",
    sort: runners.createdAt,
    id: runners.id,
    descending: true,
    limit: input.limit,
    starting_after: input.starting_after,
    read: ({ after, order, rows }) => runnerViews(ctx.db, after, rows, now, order),
    keyOf: ({ row }) => ({ value: row.createdAt, id: row.id }),
    count: () => ctx.db.select({ n: count() }).from(runners),
  });
  return { items: page.items.map((item) => item.view), total: page.total, next_cursor: page.next_cursor };
}

export async function getRunner(ctx: ServiceContext, id: string) {
  const view = await runnerView(ctx.db, id, ctx.now());
  if (view === undefined) throw runnerNotFound(id);
  return view;
}

const statusEvents = {
  cordoned: "runner_cordoned",
  draining: "runner_draining",
  revoked: "runner_revoked",
  active: null,
} as const;

/**
 * Re-assigns policy or changes the admin state. The degraded verdict is recomputed here against the
 * host's last report, so the answer is the verdict the next lease request meets.
 */
export async function updateRunner(
  ctx: ServiceContext,
  actor: Actor,
  input: {
    id: string;
    assigned_policy?: AssignedPolicy;
    status?: "active" | "cordoned" | "draining" | "revoked";
  },
  mayRevoke: boolean,
) {
  if (input.status === "revoked" && !mayRevoke) {
    throw new Problem("UZ-AUTH-022", { detail: "Revoking a runner needs the scope runner:admin." });
  }
  if (input.assigned_policy) checkAssignable(ctx, input.assigned_policy);
  const now = ctx.now();
  const revoked = await ctx.db.transaction(async (tx) => {
    const [row] = await tx.select().from(runners).where(eq(runners.id, input.id)).for("update");
    if (row === undefined) throw runnerNotFound(input.id);
    if (row.adminState === "revoked") {
      throw new Problem("UZ-RUN-017", { detail: "The runner is revoked.", current_state: "revoked" });
    }
    const policy = input.assigned_policy ?? row.assignedPolicy;
    const verdict = degradedVerdict(policy, row.capabilityReport);
    const status = input.status ?? row.adminState;
    await tx
      .update(runners)
      .set({
        assignedPolicy: policy,
        degraded: verdict.degraded,
        degradedReason: verdict.reason,
        adminState: status,
        revokedAt: status === "revoked" ? now : null,
        updatedAt: now,
      })
      .where(eq(runners.id, row.id));
    if (input.assigned_policy) {
      await recordRunnerEvent(tx, row.id, "runner_policy_assigned", now, {
        assigned_policy: policy,
        degraded: verdict.degraded,
        degraded_reason: verdict.reason,
      });
    }
    const event = statusEvents[status];
    if (status !== row.adminState && event !== null) await recordRunnerEvent(tx, row.id, event, now);
    await auditRunner(tx, actor, now, "runner.update", row.id, {
      ...(input.assigned_policy ? { assigned_policy: policy } : {}),
      ...(input.status ? { status: { from: row.adminState, to: status } } : {}),
    });
    if (status === "revoked") await notifyPrincipalChange(tx, `runner:${row.id}`);
    return status === "revoked";
  });
  if (revoked) await ctx.principalsChanged(`runner:${input.id}`);
  return getRunner(ctx, input.id);
}

export async function deleteRunner(ctx: ServiceContext, actor: Actor, id: string): Promise<void> {
  const now = ctx.now();
  await ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .select({ adminState: runners.adminState, hostId: runners.hostId })
      .from(runners)
      .where(eq(runners.id, id))
      .for("update");
    if (row === undefined) throw runnerNotFound(id);
    if (row.adminState !== "revoked") {
      throw new Problem("UZ-RUN-015", {
        detail: "Revoke the runner before deleting it.",
        current_state: row.adminState,
      });
    }
    await tx.delete(runners).where(and(eq(runners.id, id), eq(runners.adminState, "revoked")));
    await auditRunner(tx, actor, now, "runner.delete", id, { host_id: row.hostId });
  });
}

async function requireRunner(db: Database, id: string): Promise<void> {
  const [row] = await db.select({ id: runners.id }).from(runners).where(eq(runners.id, id));
  if (row === undefined) throw runnerNotFound(id);
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The fleet an entry's detail names, when it names one as a uuid (anything else matches no fleet). */
function fleetIdOf(detail: Record<string, unknown>): string | undefined {
  const id = detail.fleet_id;
  return typeof id === "string" && UUID.test(id) ? id : undefined;
}

/**
 * The names of the fleets a page of history names, in one read: the console shows "lease of fleet
 * nightly-report" rather than an id. The operator plane sees every tenant's fleets by design.
 */
async function fleetNamesOf(
  ctx: ServiceContext,
  rows: readonly { detail: Record<string, unknown> }[],
): Promise<Map<string, string>> {
  const ids = [...new Set(rows.map((row) => fleetIdOf(row.detail)).filter((id) => id !== undefined))];
  if (ids.length === 0) return new Map();
  const found = await ctx.db
    .select({ id: fleets.id, name: fleets.name })
    .from(fleets)
    .where(inArray(fleets.id, ids));
  return new Map(found.map((fleet) => [fleet.id, fleet.name]));
}

export async function listRunnerEvents(
  ctx: ServiceContext,
  input: { id: string; event_type?: RunnerEventType[]; starting_after?: string; limit: number },
) {
  await requireRunner(ctx.db, input.id);
  const bind = `runner-events:${input.id}:${(input.event_type ?? []).sort().join(",")}`;
  const conditions: SQL[] = [eq(runnerEvents.runnerId, input.id)];
  if (input.event_type) conditions.push(inArray(runnerEvents.eventType, input.event_type));
  const page = await keysetPage({
    bind,
    sort: runnerEvents.createdAt,
    id: runnerEvents.id,
    descending: true,
    limit: input.limit,
    starting_after: input.starting_after,
    read: ({ after, order, rows }) =>
      ctx.db
        .select()
        .from(runnerEvents)
        .where(and(...conditions, after))
        .orderBy(...order)
        .limit(rows),
    keyOf: (row) => ({ value: row.createdAt, id: row.id }),
  });
  const names = await fleetNamesOf(ctx, page.items);
  return {
    items: page.items.map((row) => ({
      id: row.id,
      runner_id: row.runnerId,
      event_type: row.eventType as RunnerEventType & "runner_registered",
      detail: row.detail,
      fleet_name: names.get(fleetIdOf(row.detail) ?? "") ?? null,
      created_at: row.createdAt,
    })),
    next_cursor: page.next_cursor,
  };
}
