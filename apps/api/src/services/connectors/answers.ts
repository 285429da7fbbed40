import { sql } from "@fleet/db";
import type { ServiceContext } from "../shared/context.ts";
import { clipChat, escapeChat } from "./chat-text.ts";

/** Chat answers are at most this long: the vendor's own limit on a message's text is 40,000 characters. */
const ANSWER_LIMIT = 39_000;

/** The actor prefix of events that came from a chat provider: only their reports look for a thread to answer. */
export function fromChat(actor: string | null | undefined): boolean {
  return actor?.startsWith("webhook:slack:") ?? false;
}

/**
 * A chat event was reported: its answer (or a note that the fleet could not answer) is queued for the
 * thread the question came from, and this instance's outbox delivers it now.
 */
export async function chatAnswerReady(
  ctx: ServiceContext,
  eventId: string,
  report: { outcome: string; response_text?: string | undefined; failure_label?: string | null },
): Promise<void> {
  const text =
    report.outcome === "processed"
      ? clipChat(escapeChat(report.response_text ?? ""), ANSWER_LIMIT) ||
        "(The fleet finished without an answer.)"
      : `The fleet could not answer this time (${escapeChat(report.failure_label ?? "fleet_error")}).`;
  const now = ctx.now();
  await ctx.db.execute(sql`
    update chat_messages set state = 'post', payload = ${JSON.stringify({ text })}::jsonb,
      next_attempt_at = ${now}::bigint, updated_at = ${now}::bigint
    where fleet_event_id = ${eventId}::uuid and state = 'awaiting'`);
  ctx.chat?.kick();
}
