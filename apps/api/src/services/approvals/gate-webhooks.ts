import { approvalGates, inArray, type Tx } from "@fleet/db";
import { newId } from "../../runtime/ids.ts";
import type { GateWithWebhookId } from "../shared/frames.ts";
import { recordWebhookEvent } from "../webhook-endpoints/outbox.ts";
import { type GateRow, toGateItem } from "./gate-view.ts";
import { approvalsOf } from "./votes.ts";

type GateEventType = "gate.opened" | "gate.decided" | "gate.escalated" | "gate.timed_out";

/**
 * Writes a gate's outgoing event to the outbox in the transaction that opened, decided, escalated or
 * closed it; its data is the gate as its read shows it, approvals included. The event's id is minted here
 * whether or not an endpoint subscribes, and answered (with whether anything was written), so the frame
 * the act publishes after commit carries the same id.
 */
export async function gateWebhookEvent(tx: Tx, gate: GateRow, type: GateEventType, at: number) {
  const id = newId(at);
  const written = await recordWebhookEvent(
    tx,
    {
      tenantId: gate.tenantId,
      workspaceId: gate.workspaceId,
      fleetId: gate.fleetId,
      type,
      resource: `approval_gate:${gate.id}`,
      readPath: `/v1/workspaces/${gate.workspaceId}/approvals/${gate.id}`,
      at,
      id,
    },
    async () => toGateItem(gate, (await approvalsOf(tx, [gate.id])).get(gate.id) ?? []),
  );
  return { id, written };
}

/**
 * The same for gates a sweep or a fleet's stop changed in bulk (escalated, timed out, auto-killed), read
 * back in that transaction after their change. Answers each gate with its event's id, and whether any
 * event was written.
 */
export async function gatesWebhookEvents(tx: Tx, gateIds: string[], type: GateEventType, at: number) {
  const gates: GateWithWebhookId[] = [];
  if (gateIds.length === 0) return { gates, written: false };
  const rows = await tx.select().from(approvalGates).where(inArray(approvalGates.id, gateIds));
  let written = false;
  for (const row of rows) {
    const event = await gateWebhookEvent(tx, row, type, at);
    gates.push({ id: row.id, webhookId: event.id });
    written = event.written || written;
  }
  return { gates, written };
}
