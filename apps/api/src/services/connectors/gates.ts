import { and, asc, chatLinks, chatMessages, connectorRoutes, connectors, eq, inArray, sql } from "@fleet/db";
import { gateConsoleUrl, runConsoleUrl } from "../../runtime/console-links.ts";
import { newId } from "../../runtime/ids.ts";
import type { GateChat, GateRow, ServiceContext } from "../shared/context.ts";
import { clipChat, escapeChat } from "./chat-text.ts";

/** The buttons' action ids: the gate's id travels as the button's value. */
export const APPROVE_ACTION = "fleet_gate_approve";
export const DENY_ACTION = "fleet_gate_deny";

/**
 * Where to read more, under a gate's message: the gate in the inbox (its evidence, its rule) and the run
 * that waits at it. Built by the service, not the fleet, so the links are not escaped as text is.
 */
function consoleLinks(gate: GateRow, consoleUrl: string): unknown {
  const links = [
    `<${escapeChat(gateConsoleUrl(consoleUrl, { workspaceId: gate.workspaceId, gateId: gate.id }))}|Open the gate in the console>`,
  ];
  if (gate.eventId !== null)
    links.push(
      `<${escapeChat(runConsoleUrl(consoleUrl, { workspaceId: gate.workspaceId, fleetId: gate.fleetId, eventId: gate.eventId }))}|Open the run>`,
    );
  return { type: "context", elements: [{ type: "mrkdwn", text: links.join(" · ") }] };
}

/**
 * The message of a pending gate: what the fleet proposes, and Approve and Deny buttons. Every gate has
 * them: a click is a linked member's answer, checked against the gate's rule as the inbox checks it.
 */
export function pendingMessage(gate: GateRow, consoleUrl: string): { text: string; blocks: unknown[] } {
  const text = escapeChat(
    `Approval needed: ${gate.fleetName} wants to ${gate.actionName} (${gate.toolName}, ${gate.blastRadius}).`,
  );
  const blocks: unknown[] = [
    {
      type: "section",
      text: { type: "mrkdwn", text: clipChat(`*${text}*\n${escapeChat(gate.proposedAction)}`, 2900) },
    },
  ];
  blocks.push(consoleLinks(gate, consoleUrl));
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
  return { text, blocks };
}

const OUTCOME_WORDS: Record<string, string> = {
  approved: "Approved",
  denied: "Denied",
  timed_out: "Timed out",
  auto_killed: "Closed (fleet stopped)",
};

/**
 * The message once the gate is answered: the outcome and who gave it, and no buttons. A member whose chat
 * user is linked in the message's team is mentioned as that chat user (`chatUser`).
 */
export function resolvedMessage(
  gate: GateRow,
  consoleUrl: string,
  chatUser: string | null = null,
): { text: string; blocks: unknown[] } {
  const by =
    chatUser !== null
      ? `<@${chatUser}>`
      : gate.resolvedBy?.startsWith("webhook:slack:")
        ? `<@${gate.resolvedBy.slice("webhook:slack:".length)}>`
        : escapeChat(gate.resolvedBy ?? "the service");
  const what = escapeChat(`${gate.fleetName} ${gate.actionName} (${gate.toolName})`);
  const text = `${OUTCOME_WORDS[gate.status] ?? gate.status} by ${by}: ${what}.`;
  return {
    text,
    blocks: [
      { type: "section", text: { type: "mrkdwn", text: clipChat(text, 2900) } },
      consoleLinks(gate, consoleUrl),
    ],
  };
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
      payload: pendingMessage(gate, ctx.config.consoleUrl),
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
    .select({
      id: chatMessages.id,
      gateId: chatMessages.gateId,
      tenantId: connectors.tenantId,
      provider: connectors.provider,
      teamId: connectors.teamId,
    })
    .from(chatMessages)
    .innerJoin(connectors, eq(connectors.id, chatMessages.connectorId))
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
    const chatUser = await linkedChatUser(ctx, row, gate.resolvedBy);
    await ctx.db.execute(sql`
      update chat_messages set
        payload = ${JSON.stringify(resolvedMessage(gate, ctx.config.consoleUrl, chatUser))}::jsonb,
        state = case when message_ts is null then 'post' else 'update' end,
        attempts = 0, next_attempt_at = ${now}::bigint, updated_at = ${now}::bigint
      where id = ${row.id}::uuid and state <> 'failed'`);
  }
  ctx.chat?.kick();
}

/** The chat user linked in the team to the member who answered (`user:<id>`), if any. */
async function linkedChatUser(
  ctx: ServiceContext,
  connector: { tenantId: string; provider: string; teamId: string | null },
  resolvedBy: string | null,
): Promise<string | null> {
  if (connector.teamId === null || resolvedBy === null || !resolvedBy.startsWith("user:")) return null;
  const [link] = await ctx.db
    .select({ chatUserId: chatLinks.chatUserId })
    .from(chatLinks)
    .where(
      and(
        eq(chatLinks.tenantId, connector.tenantId),
        eq(chatLinks.userId, resolvedBy.slice("user:".length)),
        eq(chatLinks.provider, connector.provider),
        eq(chatLinks.teamId, connector.teamId),
      ),
    )
    .orderBy(asc(chatLinks.createdAt))
    .limit(1);
  return link?.chatUserId ?? null;
}

/** The chat connector's side of the `GateChat` port, wired into the service context. */
export const chatGates: GateChat = { opened: chatGateOpened, resolved: chatGatesResolved };
