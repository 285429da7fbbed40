import { sql } from "@fleet/db";
import { runConsoleUrl } from "../../runtime/console-links.ts";
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
 * thread the question came from, and this instance's outbox delivers it now. The answer ends with a
 * link to the run's page in the console (its steps, gates and spend); the answer's limit leaves room for it.
 */
export async function chatAnswerReady(
  ctx: ServiceContext,
  run: { workspaceId: string; fleetId: string; eventId: string },
  report: { outcome: string; response_text?: string | undefined; failure_label?: string | null },
): Promise<void> {
  const text =
    report.outcome === "processed"
      ? clipChat(escapeChat(report.response_text ?? ""), ANSWER_LIMIT) ||
        "(The fleet finished without an answer.)"
      : `The fleet could not answer this time (${escapeChat(report.failure_label ?? "fleet_error")}).`;
  const link = `<${escapeChat(runConsoleUrl(ctx.config.consoleUrl, run))}|Open the run in the console>`;
  const now = ctx.now();
  await ctx.db.execute(sql`
    update chat_messages set state = 'post', payload = ${JSON.stringify({ text: `${text}\n\n${link}` })}::jsonb,
      next_attempt_at = ${now}::bigint, updated_at = ${now}::bigint
    where fleet_event_id = ${run.eventId}::uuid and state = 'awaiting'`);
  ctx.chat?.kick();
}
