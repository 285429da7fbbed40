import { chatMessages, connectors, eq, resultRows, sql } from "@fleet/db";
import type { ServiceContext } from "../shared/context.ts";
import { callSlack } from "./slack-client.ts";
import { markReconnectRequired, openToken } from "./token.ts";
import { VendorFailure } from "./vendor-http.ts";

/** The outbox's pg-boss queue and cadence: a pass a second picks up retries and any missed kick. */
export const CHAT_DELIVERY_QUEUE = "chat-delivery";
export const CHAT_DELIVERY_EVERY_MS = 1_000;

/** Attempts a message gets before it is given up (`failed`): 1 s, 2 s, 4 s, 8 s, 16 s apart. */
export const CHAT_MAX_ATTEMPTS = 6;

/** How long a claimed message is held by its deliverer before another pass may take it again. */
const CLAIM_MS = 30_000;

const BATCH = 20;

/** Told about a delivery that failed (UZ-SLK-030): never the token or the text, the vendor's reason only. */
export type ChatDeliveryReport = (failure: {
  messageId: string;
  attempt: number;
  reason: string;
  givenUp: boolean;
}) => void;

type Row = typeof chatMessages.$inferSelect;

export function backoffMs(attempt: number): number {
  return Math.min(1_000 * 2 ** (attempt - 1), 60_000);
}

/**
 * Delivers what is due in the chat outbox: claims up to a batch of rows (others' passes skip them), posts
 * or updates each at the vendor, and records the outcome. A failure is retried with backoff until
 * `CHAT_MAX_ATTEMPTS`; a revoked token marks the connector `reconnect_required` and gives the message up.
 * Nothing here fails a run: the fleet's event was finished before its answer was queued.
 */
export async function deliverDue(ctx: ServiceContext, report: ChatDeliveryReport): Promise<number> {
  const now = ctx.now();
  const claimed = resultRows<Record<string, unknown>>(
    await ctx.db.execute(sql`
      with due as (
        select id from chat_messages
        where state in ('post', 'update') and next_attempt_at <= ${now}::bigint
        order by next_attempt_at
        limit ${BATCH}
        for update skip locked
      )
      update chat_messages m
      set attempts = m.attempts + 1, next_attempt_at = ${now + CLAIM_MS}::bigint, updated_at = ${now}::bigint
      from due where m.id = due.id
      returning m.id`),
  );
  if (claimed.length === 0) return 0;
  await Promise.all(claimed.map((row) => deliverOne(ctx, String(row.id), report)));
  return claimed.length;
}

async function deliverOne(ctx: ServiceContext, id: string, report: ChatDeliveryReport): Promise<void> {
  const [found] = await ctx.db
    .select({ message: chatMessages, connector: connectors })
    .from(chatMessages)
    .innerJoin(connectors, eq(connectors.id, chatMessages.connectorId))
    .where(eq(chatMessages.id, id));
  if (found === undefined) return;
  const { message, connector } = found;
  const payload = message.payload ?? { text: "" };
  try {
    if (connector.status !== "connected") throw new VendorFailure("refused", "token_revoked");
    const token = openToken(ctx, connector);
    if (message.state === "update" && message.messageTs !== null) {
      await callSlack(ctx.config, "chat.update", {
        token,
        json: { channel: message.channelId, ts: message.messageTs, ...payload },
      });
      await settle(ctx, message, null);
    } else {
      const answer = await callSlack(ctx.config, "chat.postMessage", {
        token,
        json: {
          channel: message.channelId,
          ...(message.threadTs === null ? {} : { thread_ts: message.threadTs }),
          ...payload,
        },
      });
      await settle(ctx, message, typeof answer.ts === "string" ? answer.ts : null);
    }
  } catch (error) {
    const failure =
      error instanceof VendorFailure
        ? error
        : new VendorFailure("unreachable", (error as Error).name ?? "error");
    if (failure.revoked && connector.status === "connected") await markReconnectRequired(ctx, connector.id);
    const givenUp = failure.revoked || message.attempts >= CHAT_MAX_ATTEMPTS;
    const now = ctx.now();
    await ctx.db
      .update(chatMessages)
      .set({
        state: givenUp ? "failed" : message.state,
        lastError: failure.reason,
        nextAttemptAt: now + backoffMs(message.attempts),
        updatedAt: now,
      })
      .where(eq(chatMessages.id, message.id));
    report({ messageId: message.id, attempt: message.attempts, reason: failure.reason, givenUp });
  }
}

/**
 * Records a delivery. A post answers the message's `ts`; if the payload changed while it was in flight (a
 * gate answered meanwhile), the row goes on to `update` with the new payload rather than `done`.
 */
async function settle(ctx: ServiceContext, message: Row, postedTs: string | null): Promise<void> {
  const now = ctx.now();
  await ctx.db.execute(sql`
    update chat_messages set
      message_ts = coalesce(${postedTs}, message_ts),
      state = case when payload is not distinct from ${JSON.stringify(message.payload)}::jsonb then 'done' else 'update' end,
      attempts = case when payload is not distinct from ${JSON.stringify(message.payload)}::jsonb then attempts else 0 end,
      next_attempt_at = ${now}::bigint, last_error = null, updated_at = ${now}::bigint
    where id = ${message.id}::uuid`);
}
