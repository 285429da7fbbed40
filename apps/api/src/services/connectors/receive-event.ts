import { MESSAGE_LIMIT, Problem, screenInput } from "@fleet/contracts";
import { and, chatMessages, connectorRoutes, connectors, eq, fleetEvents, fleets } from "@fleet/db";
import { newId } from "../../runtime/ids.ts";
import { eventReceivedWebhookEvent } from "../fleet-events/event-webhooks.ts";
import type { ServiceContext } from "../shared/context.ts";
import { eventReceived } from "../shared/frames.ts";
import { verify } from "../webhooks/signature.ts";
import { requireChatProvider } from "./catalog.ts";
import { connectorOfTeam, firstDelivery } from "./ingress.ts";
import { answerInteraction } from "./interactions.ts";

export interface SignedDelivery {
  timestamp: string | undefined;
  signature: string | undefined;
  rawBody: string | null;
}

type Envelope = Record<string, unknown>;
type Answer = {
  status?: "ok" | "ignored" | "duplicate";
  challenge?: string;
  error_code?: string;
  event_id?: string;
};

/**
 * The chat provider's signed ingress. The signature is checked over the raw body before anything is
 * read (a stale timestamp 401 UZ-SLK-011, any other failure 401 UZ-SLK-010, a deployment with no signing
 * secret included); then a `url_verification`
 * is answered, an event from an unknown team acknowledged and ignored (UZ-SLK-020), a repeated delivery
 * answered `duplicate`, and the rest dispatched: messages to the app, revocations, button clicks.
 */
export async function receiveEvent(
  ctx: ServiceContext,
  requestId: string,
  provider: string,
  body: Envelope,
  signed: SignedDelivery,
): Promise<Answer> {
  requireChatProvider(provider);
  const secret = ctx.config.connectors.slack.signingSecret;
  // Fail closed, as a signature that does not verify: without a secret, no delivery can be told genuine.
  if (secret === null) throw new Problem("UZ-SLK-010", { detail: "The signature does not verify." });
  const verdict = verify(
    secret,
    { timestamp: signed.timestamp, signature: signed.signature },
    signed.rawBody ?? "",
    ctx.now(),
  );
  if (verdict === "stale")
    throw new Problem("UZ-SLK-011", { detail: "X-Slack-Request-Timestamp is more than 300 seconds away." });
  if (verdict !== "valid") throw new Problem("UZ-SLK-010", { detail: "The signature does not verify." });

  const envelope = typeof body.payload === "string" ? parsePayload(body.payload) : body;
  switch (envelope.type) {
    case "url_verification":
      return { challenge: typeof envelope.challenge === "string" ? envelope.challenge : "" };
    case "event_callback":
      return receiveEventCallback(ctx, provider, envelope);
    case "block_actions":
      return answerInteraction(ctx, requestId, provider, envelope);
    default:
      return { status: "ignored" };
  }
}

/** An interaction sent as `{payload: "<json>"}`: read, and screened as any body is (NUL, depth, surrogates). */
function parsePayload(payload: string): Envelope {
  let parsed: unknown;
  try {
    parsed = JSON.parse(payload);
  } catch {
    throw new Problem("UZ-REQ-001", { detail: "payload must be a JSON object." });
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed))
    throw new Problem("UZ-REQ-001", { detail: "payload must be a JSON object." });
  const fault = screenInput(parsed);
  if (fault !== null) throw new Problem("UZ-REQ-001", { detail: `payload ${fault.message}` });
  return parsed as Envelope;
}

function str(value: unknown, max = 256): string | null {
  return typeof value === "string" && value.length > 0 && value.length <= max ? value : null;
}

const ignoredTeam: Answer = { status: "ignored", error_code: "UZ-SLK-020" };

async function receiveEventCallback(
  ctx: ServiceContext,
  provider: string,
  envelope: Envelope,
): Promise<Answer> {
  const connector = await connectorOfTeam(ctx.db, provider, str(envelope.team_id, 64));
  if (connector === null) return ignoredTeam;
  const eventId = str(envelope.event_id, 128);
  const event = (
    typeof envelope.event === "object" && envelope.event !== null ? envelope.event : {}
  ) as Envelope;
  if (eventId === null) return { status: "ignored" };
  const now = ctx.now();

  if (event.type === "app_uninstalled" || event.type === "tokens_revoked") {
    const first = await ctx.db.transaction(async (tx) => {
      if (!(await firstDelivery(tx, provider, eventId, now))) return false;
      await tx
        .update(connectors)
        .set({ status: "reconnect_required", updatedAt: now })
        .where(eq(connectors.id, connector.id));
      return true;
    });
    return first ? { status: "ok" } : { status: "duplicate" };
  }

  const message = addressedMessage(event, connector.botUserId);
  if (message === null) {
    // Remembered all the same, so a repeat of it is told apart as one.
    const first = await ctx.db.transaction((tx) => firstDelivery(tx, provider, eventId, now));
    return first ? { status: "ignored" } : { status: "duplicate" };
  }
  const actor = `webhook:${provider}:${message.user}`;
  const outcome = await ctx.db.transaction(async (tx) => {
    if (!(await firstDelivery(tx, provider, eventId, now))) return "duplicate" as const;
    const [route] = await tx
      .select({ fleetId: fleets.id, workspaceId: fleets.workspaceId, status: fleets.status })
      .from(connectorRoutes)
      .innerJoin(fleets, eq(fleets.id, connectorRoutes.fleetId))
      .where(
        and(eq(connectorRoutes.connectorId, connector.id), eq(connectorRoutes.channelId, message.channel)),
      );
    if (route === undefined || route.status !== "active") return "unrouted" as const;
    const id = newId(now);
    const webhookId = newId(now);
    await tx.insert(fleetEvents).values({
      id,
      workspaceId: route.workspaceId,
      fleetId: route.fleetId,
      actor,
      eventType: "chat",
      requestJson: JSON.stringify({ message: message.text }),
      status: "received",
      createdAt: now,
      updatedAt: now,
    });
    await tx.insert(chatMessages).values({
      id: newId(now),
      connectorId: connector.id,
      kind: "answer",
      fleetEventId: id,
      channelId: message.channel,
      threadTs: message.threadTs,
      state: "awaiting",
      nextAttemptAt: now,
      createdAt: now,
      updatedAt: now,
    });
    await eventReceivedWebhookEvent(
      tx,
      { tenantId: connector.tenantId, workspaceId: route.workspaceId, fleetId: route.fleetId, eventId: id },
      now,
      webhookId,
    );
    return { id, fleetId: route.fleetId, workspaceId: route.workspaceId, webhookId };
  });
  if (outcome === "duplicate") return { status: "duplicate" };
  if (outcome === "unrouted") return { status: "ignored" };
  ctx.work.announce();
  ctx.tracing?.eventReceived(outcome.id, "chat");
  eventReceived(ctx, {
    workspaceId: outcome.workspaceId,
    fleetId: outcome.fleetId,
    eventId: outcome.id,
    eventType: "chat",
    actor,
    message: message.text,
    webhookId: outcome.webhookId,
  });
  // Its `event.received` may be in the outbox: deliver now rather than at the next pass.
  ctx.webhookOutbox?.kick();
  return { status: "ok", event_id: outcome.id };
}

/**
 * The message a person addressed to the app, or null: an `app_mention` in a channel, or a direct message
 * (`message` in an `im`). Messages from bots (the app's own answers included) and edits are not.
 */
function addressedMessage(
  event: Envelope,
  botUserId: string | null,
): { channel: string; user: string; text: string; threadTs: string } | null {
  const direct = event.type === "message" && event.channel_type === "im";
  if (event.type !== "app_mention" && !direct) return null;
  if (event.bot_id !== undefined || event.subtype !== undefined) return null;
  const channel = str(event.channel, 64);
  const user = str(event.user, 64);
  const ts = str(event.ts, 64);
  if (channel === null || user === null || ts === null || user === botUserId) return null;
  const raw = typeof event.text === "string" ? event.text : "";
  const text = (botUserId === null ? raw : raw.replaceAll(`<@${botUserId}>`, ""))
    .trim()
    .slice(0, MESSAGE_LIMIT);
  if (text.length === 0) return null;
  return { channel, user, text, threadTs: str(event.thread_ts, 64) ?? ts };
}
