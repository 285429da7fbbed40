import { approvalGates, eq, fleets, inArray, resultRows, sql } from "@fleet/db";
import { postPinned } from "../../runtime/pinned-post.ts";
import { HostRefused, resolvePublic } from "../../runtime/public-address.ts";
import { readPolicy } from "../approval-policies/policy.ts";
import type { ServiceContext } from "../context.ts";
import { workspaceWebhookSecret } from "../webhooks/secret.ts";
import { sign } from "../webhooks/signature.ts";
import { toGateItem } from "./gate-view.ts";
import { approvalsOf } from "./votes.ts";

/** How long one escalation delivery may take before it is given up. */
export const ESCALATION_DELIVERY_TIMEOUT_MS = 5_000;

/** How many due gates one sweep escalates; a larger backlog is taken by the next sweeps. */
const ESCALATION_BATCH = 500;

/** Told about a delivery that did not happen or failed: never the secret, the URL's origin only. */
export type DeliveryReport = (failure: { gateId: string; workspaceId: string; reason: string }) => void;

/**
 * Marks pending gates whose escalation time has passed as escalated, each exactly once: a conditional
 * update (`escalated_at is null`) with concurrent sweepers skipping rows another one holds. Answers the ids
 * it marked, in this call only.
 */
export async function markEscalations(ctx: ServiceContext, now: number): Promise<string[]> {
  const rows = resultRows<{ id: string }>(
    await ctx.db.execute(sql`
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
  return rows.map((row) => row.id);
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
    report({ gateId: escalated.join(","), workspaceId: "", reason: `delivery failed: ${describe(error)}` });
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
      const failure = await deliverWorkspaceWebhook(ctx, gate.workspaceId, {
        type: "approval.escalated",
        gate: item,
      });
      if (failure !== null) report({ gateId: gate.id, workspaceId: gate.workspaceId, reason: failure });
    }),
  );
}

/**
 * POSTs one notice to the workspace's outgoing webhook (the approval policy's escalation URL; budget alerts
 * use it too, with `kind` in the user agent), signed like every webhook of the service
 * (`x-signature-timestamp`, `x-signature: v0=<hex HMAC-SHA256(secret, "v0:" + ts + ":" + body)>`) with the
 * workspace's webhook secret. Answers null when delivered (a 2xx), else why not. A workspace without a URL
 * sends nothing; one without a secret sends nothing either (an unsigned call could not be trusted).
 */
export async function deliverWorkspaceWebhook(
  ctx: ServiceContext,
  workspaceId: string,
  payload: unknown,
  kind = "escalation",
): Promise<string | null> {
  const policy = await readPolicy(ctx.db, workspaceId);
  const url = policy?.escalationWebhookUrl ?? null;
  if (url === null) return null;
  const target = new URL(url);
  const secret = await workspaceWebhookSecret(ctx.db, ctx.vault, workspaceId);
  if (secret === null)
    return `not sent to ${target.origin}: the workspace has no webhook secret to sign with`;
  let addresses: string[] | null = null;
  if (!ctx.config.devMode) {
    // The host was public when the policy was stored; a name can change what it resolves to since. The
    // call connects to the addresses checked now, so it cannot be re-pointed after this check.
    try {
      addresses = await resolvePublic(target.hostname);
    } catch (error) {
      const why = error instanceof HostRefused ? "resolves to a non-public address" : "does not resolve";
      return `not sent to ${target.origin}: the host ${why}`;
    }
  }
  const body = JSON.stringify(payload);
  const timestamp = Math.floor(ctx.now() / 1000);
  try {
    const status = await postPinned(
      target,
      body,
      {
        "content-type": "application/json",
        "user-agent": `fleet-control-plane/${kind}`,
        "x-signature-timestamp": String(timestamp),
        "x-signature": sign(secret, timestamp, body),
      },
      { addresses, timeoutMs: ESCALATION_DELIVERY_TIMEOUT_MS },
    );
    return status >= 200 && status < 300 ? null : `${target.origin} answered ${status}`;
  } catch (error) {
    return `${target.origin} unreachable: ${describe(error)}`;
  }
}

function describe(error: unknown): string {
  const named = error as { name?: string; code?: string; cause?: { code?: string } };
  return named.code ?? named.cause?.code ?? named.name ?? "error";
}
