import { MODEL_CALLS_PER_LEASE, Problem } from "@fleet/contracts";
import type { RelayAnswer } from "../../http/relay.ts";
import type { ServiceContext } from "../shared/context.ts";
import { fromAnthropic } from "./anthropic-answer.ts";
import { anthropicStream } from "./anthropic-stream.ts";
import { scrub } from "./failures.ts";
import { forwardChat } from "./forward.ts";
import { type CallUsage, chargeCall, openaiUsage } from "./meter.ts";
import { heldLease, resolveTarget, type Target } from "./resolve.ts";
import { relayStream } from "./stream-relay.ts";

/** Calls open per lease on this instance (docs/decisions/model-gateway.md: the cap is per instance). */
const open = new WeakMap<object, Map<string, number>>();

/** Takes one of the lease's call slots, or refuses 429 UZ-MODEL-007; the answer gives it back once. */
function takeSlot(ctx: ServiceContext, leaseId: string): () => void {
  let calls = open.get(ctx.db);
  if (calls === undefined) {
    calls = new Map();
    open.set(ctx.db, calls);
  }
  const held = calls.get(leaseId) ?? 0;
  if (held >= MODEL_CALLS_PER_LEASE) {
    throw new Problem("UZ-MODEL-007", {
      detail: `The lease already has ${MODEL_CALLS_PER_LEASE} model calls open; retry when one ends.`,
      headers: { "retry-after": "1" },
    });
  }
  calls.set(leaseId, held + 1);
  let given = false;
  const map = calls;
  return () => {
    if (given) return;
    given = true;
    const left = (map.get(leaseId) ?? 1) - 1;
    if (left <= 0) map.delete(leaseId);
    else map.set(leaseId, left);
  };
}

export interface ChatInput extends Record<string, unknown> {
  lease_id: string;
  fleet_fencing_token: number;
}

/**
 * One chat completion through the gateway: the holder and its budget checked (409 before anything is
 * forwarded), a call slot taken, the target resolved, the call forwarded, and the vendor's usage charged
 * once when the answer (or the stream) ends. The call counts against the fleet's workspace rate limit
 * (`admit`). The request's own `model` is ignored.
 */
export async function chatCompletion(
  ctx: ServiceContext,
  runnerId: string,
  input: ChatInput,
  admit: (tenantId: string, workspaceId: string) => void | Promise<void>,
): Promise<RelayAnswer> {
  const { lease_id, fleet_fencing_token, ...body } = input;
  const lease = await heldLease(ctx, runnerId, { lease_id, fencing_token: fleet_fencing_token }, true);
  await admit(lease.tenantId, lease.workspaceId);
  const release = takeSlot(ctx, lease.id);
  try {
    const target = await resolveTarget(ctx, lease);
    const forwarded = await forwardChat(target, body, ctx.config.modelGateway.deadlineMs);
    if (body.stream === true) {
      let charged = false;
      const settle = async (usage: CallUsage | null) => {
        if (charged || usage === null) return;
        charged = true;
        await chargeCall(ctx, lease.id, target, usage);
      };
      return {
        status: 200,
        headers: { "content-type": "text/event-stream; charset=utf-8" },
        body:
          target.provider === "anthropic"
            ? anthropicStream(forwarded, target.apiKey, includeUsage(body), settle)
            : relayStream(forwarded, target.apiKey, settle),
        done: release,
      };
    }
    const answer = await whole(forwarded, target);
    let text = answer.text;
    let usage = openaiUsage((answer.parsed as { usage?: unknown }).usage);
    if (target.provider === "anthropic") {
      const translated = fromAnthropic(answer.parsed);
      text = scrub(JSON.stringify(translated.answer), target.apiKey);
      usage = translated.usage;
    }
    if (usage !== null) await chargeCall(ctx, lease.id, target, usage);
    release();
    return { status: 200, headers: { "content-type": "application/json" }, body: text };
  } catch (error) {
    release();
    throw error;
  }
}

/** Whether the client asked for the final usage chunk (`stream_options.include_usage`). */
const includeUsage = (body: Record<string, unknown>): boolean =>
  (body.stream_options as { include_usage?: unknown } | null | undefined)?.include_usage === true;

/** A non-streamed answer, read whole within the deadline; anything but a JSON object is a 502. */
async function whole(
  forwarded: Awaited<ReturnType<typeof forwardChat>>,
  target: Target,
): Promise<{ text: string; parsed: unknown }> {
  let text: string;
  try {
    text = await forwarded.response.text();
  } catch {
    const timedOut = (forwarded.reason() as { name?: string } | undefined)?.name === "TimeoutError";
    throw new Problem(timedOut ? "UZ-MODEL-003" : "UZ-MODEL-002", {
      detail: timedOut
        ? `The ${target.provider} provider did not answer within the deadline.`
        : `The ${target.provider} provider broke off its answer.`,
    });
  } finally {
    forwarded.stop();
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = null;
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    throw new Problem("UZ-MODEL-002", {
      detail: `The ${target.provider} provider answered something not JSON.`,
    });
  }
  return { text: scrub(text, target.apiKey), parsed };
}
