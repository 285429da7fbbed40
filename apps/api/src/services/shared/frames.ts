import type { fleetEventTypes } from "@fleet/contracts";
import { approvalGates, inArray } from "@fleet/db";
import type { GateRow, ServiceContext } from "./context.ts";

// Every frame of an act that wrote an outgoing event (or would have, had an endpoint subscribed) carries
// that event's id as `webhook_id`: a delivery's `webhook-id` and payload `id`, so a client reading both
// deduplicates across the two (docs/decisions/webhooks.md, "The event's id on the live tail").

/**
 * A gate an act opened or resolved (decided, timed out, auto-killed), with the id of the outgoing event
 * the act minted for it: the frame published after commit carries it as `webhook_id`.
 */
export interface GateWithWebhookId {
  id: string;
  webhookId: string;
}

/** How much of a request the `event_received` frame previews: enough to recognise it, never the whole. */
const PREVIEW_CHARS = 160;

/** An event entered (a message, a cron fire, a run again): published after its insert commits. */
export function eventReceived(
  ctx: ServiceContext,
  event: {
    workspaceId: string;
    fleetId: string;
    eventId: string;
    eventType: (typeof fleetEventTypes)[number];
    actor: string;
    message?: string;
    /** The id of its `event.received` outgoing event, minted by the act that stored it. */
    webhookId: string;
  },
): void {
  ctx.streams.publish({
    workspaceId: event.workspaceId,
    fleetId: event.fleetId,
    eventId: event.eventId,
    leaseId: null,
    kind: "event_received",
    payload: {
      event_type: event.eventType,
      actor: event.actor,
      webhook_id: event.webhookId,
      ...(event.message === undefined ? {} : { request_preview: event.message.slice(0, PREVIEW_CHARS) }),
    },
    at: ctx.now(),
  });
}

/** A runner's report finished an event. */
export function eventComplete(
  ctx: ServiceContext,
  run: { workspaceId: string; fleetId: string; eventId: string; leaseId: string },
  report: {
    status: string;
    failure_label?: string | null;
    wall_ms?: number;
    tokens?: number;
    cost_nanos?: number;
  },
  /** The id of the report's `event.completed`/`event.failed` outgoing event, and whether it was written. */
  webhook: { id: string; written: boolean },
): void {
  const payload: Record<string, unknown> = { status: report.status, webhook_id: webhook.id };
  if (report.failure_label) payload.failure_label = report.failure_label;
  if (report.wall_ms !== undefined) payload.wall_ms = report.wall_ms;
  if (report.tokens !== undefined) payload.tokens = report.tokens;
  // Nanos of the tenant's currency unit, as `cost_nanos` is everywhere else.
  if (report.cost_nanos !== undefined) payload.cost = report.cost_nanos;
  ctx.streams.publish({ ...run, kind: "event_complete", payload, at: ctx.now() });
  // The report wrote the outbox (an endpoint subscribes): deliver now rather than at the next pass. A
  // report no endpoint takes leaves the deliverer asleep: woken, it would look for work that is not there.
  if (webhook.written) ctx.webhookOutbox?.kick();
}

/** A gate opened (a run's, or an integration grant's): the fields the inbox lists, nothing of its evidence. */
export function gateOpened(ctx: ServiceContext, gate: GateRow, webhookId: string): void {
  ctx.streams.publish({
    workspaceId: gate.workspaceId,
    fleetId: gate.fleetId,
    eventId: gate.eventId,
    leaseId: gate.leaseId,
    kind: "gate_opened",
    payload: {
      gate_id: gate.id,
      action_id: gate.actionId,
      gate_kind: gate.gateKind,
      tool_name: gate.toolName,
      action_name: gate.actionName,
      blast_radius: gate.blastRadius,
      timeout_at: gate.timeoutAt,
      webhook_id: webhookId,
    },
    at: ctx.now(),
  });
  // A workspace with a connected chat provider shows the gate there too, with Approve and Deny buttons.
  ctx.gateChat.opened(ctx, gate).catch(() => {});
  // Its `gate.opened` may be in the outbox: deliver now rather than at the next pass.
  ctx.webhookOutbox?.kick();
}

/**
 * Reads gates after the transaction that changed them committed, without making it wait: the business
 * write neither waits for nor fails with the publication. Best effort, as the live tail is: the inbox
 * list still shows every gate.
 */
function readGates(
  ctx: ServiceContext,
  gateIds: readonly string[],
  publish: (gate: GateRow) => void,
  after?: (gates: GateRow[]) => Promise<void>,
): void {
  if (gateIds.length === 0) return;
  ctx.db
    .select()
    .from(approvalGates)
    .where(inArray(approvalGates.id, [...gateIds]))
    .then(
      (rows) => {
        for (const gate of rows) publish(gate);
        return after?.(rows);
      },
      () => {},
    )
    .catch(() => {});
}

/** Gates opened in a transaction that held only their ids (an integration grant's). */
export function gatesOpened(ctx: ServiceContext, gates: readonly GateWithWebhookId[]): void {
  const webhookIds = new Map(gates.map((gate) => [gate.id, gate.webhookId]));
  readGates(
    ctx,
    gates.map((gate) => gate.id),
    (gate) => gateOpened(ctx, gate, webhookIds.get(gate.id)!),
  );
}

/**
 * Gates that may have been resolved (answered, timed out, auto-killed, decided by a webhook): each one
 * found resolved is published.
 */
export function gatesResolved(ctx: ServiceContext, gates: readonly GateWithWebhookId[]): void {
  // A decided gate's `gate.decided` is in the outbox: deliver now rather than at the next pass.
  if (gates.length > 0) ctx.webhookOutbox?.kick();
  const webhookIds = new Map(gates.map((gate) => [gate.id, gate.webhookId]));
  readGates(
    ctx,
    gates.map((gate) => gate.id),
    (gate) => {
      if (gate.status === "pending") return;
      ctx.streams.publish({
        workspaceId: gate.workspaceId,
        fleetId: gate.fleetId,
        eventId: gate.eventId,
        leaseId: gate.leaseId,
        kind: "gate_resolved",
        payload: {
          gate_id: gate.id,
          action_id: gate.actionId,
          outcome: gate.status,
          resolved_by: gate.resolvedBy,
          resolved_at: gate.resolvedAt,
          webhook_id: webhookIds.get(gate.id),
        },
        at: ctx.now(),
      });
    },
    // Wherever the gate was answered, its chat message is updated with the outcome.
    (gates) => ctx.gateChat.resolved(ctx, gates),
  );
}
