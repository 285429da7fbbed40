import { and, asc, chatMessages, connectorRoutes, connectors, eq, inArray, sql } from "@fleet/db";
import { newId } from "../../runtime/ids.ts";
import { ruleNeedsPeople } from "../approvals/gate-view.ts";
import type { GateChat, GateRow, ServiceContext } from "../shared/context.ts";
import { clipChat, escapeChat } from "./chat-text.ts";

/** The buttons' action ids: the gate's id travels as the button's value. */
export const APPROVE_ACTION = "fleet_gate_approve";
export const DENY_ACTION = "fleet_gate_deny";

/** Whether a chat click may decide this gate: its rule names no approvers and takes one approval. */
export function answerableInChat(gate: GateRow): boolean {
  return !ruleNeedsPeople(gate);
}

/** The message of a pending gate: what the fleet proposes, and Approve and Deny buttons when chat may answer. */
export function pendingMessage(gate: GateRow): { text: string; blocks: unknown[] } {
  const text = escapeChat(
    `Approval needed: ${gate.fleetName} wants to ${gate.actionName} (${gate.toolName}, ${gate.blastRadius}).`,
  );
  const blocks: unknown[] = [
    {
      type: "section",
      text: { type: "mrkdwn", text: clipChat(`*${text}*\n${escapeChat(gate.proposedAction)}`, 2900) },
    },
  ];
  if (answerableInChat(gate))
    blocks.push({
      type: "actions",
      block_id: `gate:${gate.id}`,
      elements: [
        {
          type: "button",
          action_id: APPROVE_ACTION,
          value: gate.id,
          style: "primary",
          text: { type: "plain_text", text: "Approve" },
        },
        {
          type: "button",
          action_id: DENY_ACTION,
          value: gate.id,
          style: "danger",
          text: { type: "plain_text", text: "Deny" },
        },
      ],
    });
  else
    blocks.push({
      type: "context",
      elements: [
        { type: "mrkdwn", text: "This gate's rule names its approvers: answer it in the console's inbox." },
      ],
    });
  return { text, blocks };
}

const OUTCOME_WORDS: Record<string, string> = {
  approved: "Approved",
  denied: "Denied",
  timed_out: "Timed out",
  auto_killed: "Closed (fleet stopped)",
};

/** The message once the gate is answered: the outcome and who gave it, and no buttons. */
export function resolvedMessage(gate: GateRow): { text: string; blocks: unknown[] } {
  const by = gate.resolvedBy?.startsWith("webhook:slack:")
    ? `<@${gate.resolvedBy.slice("webhook:slack:".length)}>`
    : escapeChat(gate.resolvedBy ?? "the service");
  const what = escapeChat(`${gate.fleetName} ${gate.actionName} (${gate.toolName})`);
  const text = `${OUTCOME_WORDS[gate.status] ?? gate.status} by ${by}: ${what}.`;
  return { text, blocks: [{ type: "section", text: { type: "mrkdwn", text: clipChat(text, 2900) } }] };
}

/**
 * A gate opened in a workspace with a connected chat provider: queue its message, with Approve and Deny
 * buttons, for the channel routed to the gate's own fleet, and no other: a fleet with no route posts
 * nothing, so one fleet's gate never lands in another fleet's channel. Called after the gate's transaction
 * committed; best effort, as the live tail is.
 */
export async function chatGateOpened(ctx: ServiceContext, gate: GateRow): Promise<void> {
  const [route] = await ctx.db
    .select({ connectorId: connectors.id, channelId: connectorRoutes.channelId })
    .from(connectors)
    .innerJoin(connectorRoutes, eq(connectorRoutes.connectorId, connectors.id))
    .where(
      and(
        eq(connectors.workspaceId, gate.workspaceId),
        eq(connectors.status, "connected"),
        eq(connectorRoutes.fleetId, gate.fleetId),
      ),
    )
    .orderBy(asc(connectorRoutes.createdAt), asc(connectorRoutes.channelId))
    .limit(1);
  if (route === undefined) return;
  const now = ctx.now();
  await ctx.db
    .insert(chatMessages)
    .values({
      id: newId(now),
      connectorId: route.connectorId,
      kind: "gate",
      gateId: gate.id,
      channelId: route.channelId,
      state: "post",
      payload: pendingMessage(gate),
      nextAttemptAt: now,
      createdAt: now,
      updatedAt: now,
    })
    .onConflictDoNothing();
  ctx.chat?.kick();
}

/**
 * Gates were answered (in the inbox, over REST, in chat, by a webhook, the sweeper): each one's chat
 * message is updated with the outcome (or, not yet posted, posted with it).
 */
export async function chatGatesResolved(ctx: ServiceContext, gates: readonly GateRow[]): Promise<void> {
  const resolved = gates.filter((gate) => gate.status !== "pending");
  if (resolved.length === 0) return;
  const rows = await ctx.db
    .select({ id: chatMessages.id, gateId: chatMessages.gateId })
    .from(chatMessages)
    .where(
      and(
        eq(chatMessages.kind, "gate"),
        inArray(
          chatMessages.gateId,
          resolved.map((gate) => gate.id),
        ),
      ),
    );
  if (rows.length === 0) return;
  const now = ctx.now();
  for (const row of rows) {
    const gate = resolved.find((candidate) => candidate.id === row.gateId)!;
    await ctx.db.execute(sql`
      update chat_messages set
        payload = ${JSON.stringify(resolvedMessage(gate))}::jsonb,
        state = case when message_ts is null then 'post' else 'update' end,
        attempts = 0, next_attempt_at = ${now}::bigint, updated_at = ${now}::bigint
      where id = ${row.id}::uuid and state <> 'failed'`);
  }
  ctx.chat?.kick();
}

/** The chat connector's side of the `GateChat` port, wired into the service context. */
export const chatGates: GateChat = { opened: chatGateOpened, resolved: chatGatesResolved };
