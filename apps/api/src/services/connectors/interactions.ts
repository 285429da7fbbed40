import { uuidv7 } from "@fleet/contracts";
import { decideGate } from "../approvals/decide-gate.ts";
import { settleGrantForGate } from "../approvals/grant-gate.ts";
import { lockOpenGate } from "../approvals/lock-gate.ts";
import { recordAudit } from "../shared/audit.ts";
import type { ServiceContext } from "../shared/context.ts";
import { gatesResolved } from "../shared/frames.ts";
import { APPROVE_ACTION, answerableInChat, DENY_ACTION } from "./gates.ts";
import { connectorOfTeam, firstDelivery } from "./ingress.ts";

type Envelope = Record<string, unknown>;
type Answer = { status: "ok" | "ignored" | "duplicate"; error_code?: string };

const gateId = uuidv7("gate_id");

function field(value: unknown, key: string): string | null {
  const inner =
    typeof value === "object" && value !== null ? (value as Record<string, unknown>)[key] : undefined;
  return typeof inner === "string" && inner.length > 0 && inner.length <= 256 ? inner : null;
}

/**
 * A click on a gate message's Approve or Deny button. The team must be connected, and the gate pending
 * in that connector's workspace, with a rule anyone may answer (no named approvers, one approval): a chat
 * user is not mapped to a member, so a rule that names people is answered in the inbox. The first answer
 * wins, through the same write every answer goes through (`decideGate`, under the gate's lock); the gate's
 * `resolved_by` is `webhook:slack:<user id>`, and its message is updated with the outcome. A click on a
 * gate already answered changes nothing (its message shows the standing answer).
 */
export async function answerInteraction(
  ctx: ServiceContext,
  requestId: string,
  provider: string,
  envelope: Envelope,
): Promise<Answer> {
  const connector = await connectorOfTeam(ctx.db, provider, field(envelope.team, "id"));
  if (connector === null) return { status: "ignored", error_code: "UZ-SLK-020" };
  const user = field(envelope.user, "id");
  const actions = Array.isArray(envelope.actions) ? envelope.actions : [];
  const action = actions[0];
  const actionId = field(action, "action_id");
  const parsedGate = gateId.safeParse(field(action, "value"));
  if (user === null || !parsedGate.success || (actionId !== APPROVE_ACTION && actionId !== DENY_ACTION))
    return { status: "ignored" };
  const outcome = actionId === APPROVE_ACTION ? "approved" : "denied";
  const deliveryId = `action:${parsedGate.data}:${user}:${field(action, "action_ts") ?? ""}`;
  const resolvedBy = `webhook:${provider}:${user}`;
  const now = ctx.now();
  const result = await ctx.db.transaction(async (tx) => {
    if (!(await firstDelivery(tx, provider, deliveryId, now))) return "duplicate" as const;
    let locked: Awaited<ReturnType<typeof lockOpenGate>>;
    try {
      locked = await lockOpenGate(
        tx,
        connector.tenantId,
        { workspace_id: connector.workspaceId, gate_id: parsedGate.data },
        now,
      );
    } catch {
      return "ignored" as const; // not a gate of this workspace
    }
    if ("closed" in locked)
      return locked.timedOut ? { id: locked.closed.id, decided: false } : ("ignored" as const);
    const { gate } = locked;
    if (!answerableInChat(gate)) return "ignored" as const;
    const decided = (await decideGate(tx, gate.id, { outcome, reason: null, resolvedBy }, now))!;
    await recordAudit(tx, {
      actor: { principal: resolvedBy, requestId },
      at: now,
      tenantId: gate.tenantId,
      workspaceId: gate.workspaceId,
      action: outcome === "approved" ? "approval.approve" : "approval.deny",
      target: `approval_gate:${gate.id}`,
      details: { fleet_id: gate.fleetId, gate_kind: gate.gateKind, via: provider, decided: true },
    });
    await settleGrantForGate(tx, decided, now);
    return { id: decided.id, decided: true };
  });
  if (result === "duplicate") return { status: "duplicate" };
  if (result === "ignored") return { status: "ignored" };
  ctx.gates.wake(result.id);
  gatesResolved(ctx, [result.id]);
  return { status: result.decided ? "ok" : "ignored" };
}
