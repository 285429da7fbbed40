import { approvalGates, eq, fleets, inArray, resultRows, sql } from "@fleet/db";
import { gateConsoleUrl, runConsoleUrl } from "../../runtime/console-links.ts";
import type { ServiceContext } from "../shared/context.ts";
import { errorCode } from "../shared/errors.ts";
import { toGateItem } from "./gate-view.ts";
import { gatesWebhookEvents } from "./gate-webhooks.ts";
import { approvalsOf } from "./votes.ts";

/** How many due gates one sweep escalates; a larger backlog is taken by the next sweeps. */
const ESCALATION_BATCH = 500;

/** Told about a delivery that did not happen or failed: never the secret, the URL's origin only. */
export type DeliveryReport = (failure: { gateId: string; workspaceId: string; reason: string }) => void;

/**
 * Marks pending gates whose escalation time has passed as escalated, each exactly once: a conditional
 * update (`escalated_at is null`) with concurrent sweepers skipping rows another one holds, and each
 * marked gate's `gate.escalated` in the outbox in the same transaction (beside the old notice, which goes
 * after commit). Answers the ids it marked, in this call only.
 */
export async function markEscalations(ctx: ServiceContext, now: number): Promise<string[]> {
  const { ids, written } = await ctx.db.transaction(async (tx) => {
    const rows = resultRows<{ id: string }>(
      await tx.execute(sql`
      with due as (
        select id from approval_gates
        where status = 'pending' and escalated_at is null and escalate_at <= ${now}::bigint
          and timeout_at > ${now}::bigint
        order by escalate_at
        limit ${ESCALATION_BATCH}
        for update skip locked
      )
      update approval_gates g
      set escalated_at = ${now}::bigint, updated_at = ${now}::bigint
      from due where g.id = due.id and g.status = 'pending' and g.escalated_at is null
      returning g.id`),
    );
    const marked = rows.map((row) => row.id);
    return { ids: marked, written: (await gatesWebhookEvents(tx, marked, "gate.escalated", now)).written };
  });
  if (written) ctx.webhookOutbox?.kick();
  return ids;
}

/**
 * The sweep's escalation step: marks what is due, then sends each marked gate's signed webhook in the
 * background. Answers the ids marked and a promise of their deliveries (which never rejects), so the
 * sweep never waits on a receiver, and a failed delivery never undoes the marking.
 */
export async function escalateDueGates(
  ctx: ServiceContext,
  report: DeliveryReport,
): Promise<{ escalated: string[]; delivered: Promise<void> }> {
  const escalated = await markEscalations(ctx, ctx.now());
  if (escalated.length === 0) return { escalated, delivered: Promise.resolve() };
  const delivered = deliverEscalations(ctx, escalated, report).catch((error: unknown) => {
    report({ gateId: escalated.join(","), workspaceId: "", reason: `delivery failed: ${errorCode(error)}` });
  });
  return { escalated, delivered };
}

async function deliverEscalations(ctx: ServiceContext, gateIds: string[], report: DeliveryReport) {
  const rows = await ctx.db
    .select({ gate: approvalGates, fleetName: fleets.name })
    .from(approvalGates)
    .leftJoin(fleets, eq(fleets.id, approvalGates.fleetId))
    .where(inArray(approvalGates.id, gateIds));
  const approvals = await approvalsOf(ctx.db, gateIds);
  await Promise.all(
    rows.map(async ({ gate, fleetName }) => {
      const item = toGateItem(gate, approvals.get(gate.id) ?? [], fleetName);
      const consoleUrl = ctx.config.consoleUrl;
      const links = {
        console_url: gateConsoleUrl(consoleUrl, { workspaceId: gate.workspaceId, gateId: gate.id }),
        run_url:
          gate.eventId === null
            ? null
            : runConsoleUrl(consoleUrl, {
                workspaceId: gate.workspaceId,
                fleetId: gate.fleetId,
                eventId: gate.eventId,
              }),
      };
      const failure = await ctx.webhook.send(
        ctx,
        gate.workspaceId,
        { type: "approval.escalated", gate: item, ...links },
        "escalation",
      );
      if (failure !== null) report({ gateId: gate.id, workspaceId: gate.workspaceId, reason: failure });
    }),
  );
}
