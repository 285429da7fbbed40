import { gateConsoleUrl, runConsoleUrl } from "../../runtime/console-links.ts";
import type { NoticeEvent, NoticeFormat, NoticeRequest, ServiceContext } from "../shared/context.ts";
import { workspaceWebhookSecret } from "./secret.ts";
import { sign } from "./signature.ts";

/**
 * The notice endpoint's request for an event (docs/decisions/webhooks.md, "The escalation and budget
 * notices"): today's notice body, signed in the v0 scheme (`x-signature-timestamp`, `x-signature`) with the
 * workspace's notice secret as it is now, so a rotation applies at the next attempt. Without a notice
 * secret there is nothing trustworthy to send: the attempt fails (`no_notice_secret`) and retries.
 */
async function noticeRequest(ctx: ServiceContext, event: NoticeEvent, now: number): Promise<NoticeRequest> {
  const secret = await workspaceWebhookSecret(ctx.db, ctx.vault, event.workspaceId, "outgoing");
  if (secret === null) return { error: "no_notice_secret" };
  const { kind, payload } = noticeBody(ctx, event);
  const body = JSON.stringify(payload);
  const timestamp = Math.floor(now / 1000);
  return {
    body,
    headers: {
      "content-type": "application/json",
      "user-agent": `fleet-control-plane/${kind}`,
      "x-signature-timestamp": String(timestamp),
      "x-signature": sign(secret, timestamp, body),
    },
  };
}

/** Today's bodies: a gate's escalation with its console links, a budget alert's facts, or a ping. */
function noticeBody(ctx: ServiceContext, event: NoticeEvent): { kind: string; payload: unknown } {
  const data = event.data;
  if (event.type === "gate.escalated") {
    const workspaceId = event.workspaceId;
    const gateId = String(data.gate_id);
    const runEventId = typeof data.event_id === "string" ? data.event_id : null;
    return {
      kind: "escalation",
      payload: {
        type: "approval.escalated",
        gate: data,
        console_url: gateConsoleUrl(ctx.config.consoleUrl, { workspaceId, gateId }),
        run_url:
          runEventId === null
            ? null
            : runConsoleUrl(ctx.config.consoleUrl, {
                workspaceId,
                fleetId: String(data.fleet_id),
                eventId: runEventId,
              }),
      },
    };
  }
  if (event.type === "budget.threshold_crossed") {
    return {
      kind: "budget-alert",
      payload: {
        type: "budget.alert",
        fleet_id: data.fleet_id,
        workspace_id: event.workspaceId,
        period: data.period,
        percent: data.percent,
        period_budget_nanos: data.period_budget_nanos,
        period_spend_nanos: data.crossed_at_spend_nanos,
        at: event.createdAt,
      },
    };
  }
  return { kind: "ping", payload: { type: event.type, id: event.eventId, at: event.createdAt } };
}

/** The `NoticeFormat` port, wired into the service context. */
export const noticeFormat: NoticeFormat = { request: noticeRequest };
