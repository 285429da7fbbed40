import type { Tx } from "@fleet/db";
import { recordWebhookEvent } from "../webhook-endpoints/outbox.ts";
import { type GateRow, toGateItem } from "./gate-view.ts";
import { approvalsOf } from "./votes.ts";

/**
 * Writes a gate's outgoing event (`gate.opened`, `gate.decided`) to the outbox in the transaction that
 * opened or decided it; its data is the gate as its read shows it, approvals included.
 */
export async function gateWebhookEvent(
  tx: Tx,
  gate: GateRow,
  type: "gate.opened" | "gate.decided",
  at: number,
) {
  return recordWebhookEvent(
    tx,
    {
      tenantId: gate.tenantId,
      workspaceId: gate.workspaceId,
      fleetId: gate.fleetId,
      type,
      resource: `approval_gate:${gate.id}`,
      readPath: `/v1/workspaces/${gate.workspaceId}/approvals/${gate.id}`,
      at,
    },
    async () => toGateItem(gate, (await approvalsOf(tx, [gate.id])).get(gate.id) ?? []),
  );
}
