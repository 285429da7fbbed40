import { MODEL_ANSWER_MAX_BYTES, MODEL_CALLS_PER_LEASE, Problem } from "@fleet/contracts";
import type { RelayAnswer } from "../../http/relay.ts";
import type { ServiceContext } from "../shared/context.ts";
import { type AdmittedCall, admitCall, callEstimate } from "./admission.ts";
import { fromAnthropic } from "./anthropic-answer.ts";
import { anthropicStream } from "./anthropic-stream.ts";
import { scrub } from "./failures.ts";
import { forwardChat, readCapped } from "./forward.ts";
import { answerText, liveOutput } from "./live-output.ts";
import { type CallUsage, openaiUsage, settleCall } from "./meter.ts";
import { type CallObserver, failedOutcome, observeCall } from "./observe-call.ts";
import { type Target, targetOf } from "./resolve.ts";
import { settleAfter } from "./settlements.ts";
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
 * One chat completion through the gateway: admitted in one statement (admission.ts: the holder, its
 * expiry and its budget checked, the call's worst case reserved; 409 before anything is forwarded), a
 * call slot taken, the target's endpoint and key, the call forwarded, and the vendor's usage charged in
 * place of the reservation once, when the answer (or the stream) ends; a call that fails gives its
 * reservation back. The call counts against the fleet's workspace rate limit (`admit`). The request's
 * own `model` is ignored. The model's text goes to the fleet's live tail as chunk frames
 * (live-output.ts); the call is counted in the metrics and the run's trace (observe-call.ts).
 */
export async function chatCompletion(
  ctx: ServiceContext,
  runnerId: string,
  input: ChatInput,
  admit: (tenantId: string, workspaceId: string) => void | Promise<void>,
): Promise<RelayAnswer> {
  const startedMs = performance.now();
  const { lease_id, fleet_fencing_token, ...body } = input;
  const call = await admitCall(
    ctx,
    runnerId,
    { lease_id, fencing_token: fleet_fencing_token },
    callEstimate(body),
  );
  const { lease } = call;
  let settled = false;
  // Written after the answer has gone, once (settlements.ts); the call's reservation holds its worst case until then.
  const settle = (usage: CallUsage | null) => {
    if (settled) return;
    settled = true;
    settleAfter(ctx.db, lease.id, () => settleCall(ctx, call, usage));
  };
  let release: () => void = () => {};
  let observer: CallObserver | null = null;
  try {
    await admit(lease.tenantId, lease.workspaceId);
    release = takeSlot(ctx, lease.id);
    const target = await chosenTarget(ctx, call);
    const stream = body.stream === true;
    observer = observeCall(ctx, { leaseId: lease.id, eventId: lease.eventId }, target, stream, startedMs);
    const forwarded = await forwardChat(target, body, ctx.config.modelGateway.deadlineMs);
    const live = liveOutput(ctx, lease, target.apiKey, continues(body.messages));
    if (stream) {
      let seen: CallUsage | null = null;
      const end = (usage: CallUsage | null) => {
        live.end();
        seen = usage;
        settle(usage);
      };
      const relay =
        target.provider === "anthropic"
          ? anthropicStream(forwarded, target.apiKey, includeUsage(body), end, live.onText)
          : relayStream(forwarded, target.apiKey, end, live.onText);
      const slot = release;
      return {
        status: 200,
        headers: { "content-type": "text/event-stream; charset=utf-8" },
        body: observer.watch(relay, () => seen),
        // The relay settles at its end; were it never read, the reservation still goes back here.
        done: () => {
          slot();
          settle(null);
        },
      };
    }
    const answer = await whole(forwarded, target);
    let text = answer.text;
    let usage = openaiUsage((answer.parsed as { usage?: unknown }).usage);
    let parsed: unknown = answer.parsed;
    if (target.provider === "anthropic") {
      const translated = fromAnthropic(answer.parsed);
      parsed = translated.answer;
      text = scrub(JSON.stringify(translated.answer), target.apiKey);
      usage = translated.usage;
    }
    live.onText(answerText(parsed as { usage?: unknown }));
    live.end();
    observer.end("ok", usage);
    const slot = release;
    return {
      status: 200,
      headers: { "content-type": "application/json" },
      body: text,
      // The slot is held, and the charge written, once the answer is on its way.
      done: () => {
        slot();
        settle(usage);
      },
    };
  } catch (error) {
    observer?.end(failedOutcome(error), null);
    release();
    settle(null);
    throw error;
  }
}

/** The model id the scripted demo model answers to (apps/runner/dev/scripted-model.ts). */
export const SCRIPTED_DEMO_MODEL = "scripted-demo";

/**
 * The admitted call's endpoint and key; 409 UZ-MODEL-001 when neither tenant nor platform has a provider.
 * The one dev-mode allowance: with neither, and FLEET_DEV_SCRIPTED_MODEL_URL set (only accepted with
 * FLEET_DEV_MODE=true), the call goes to the scripted demo model on loopback, keyless and unpriced
 * (docs/decisions/agent-executor.md, "The demo fleet and the scripted model").
 */
function chosenTarget(ctx: ServiceContext, call: AdmittedCall): Promise<Target> {
  const scripted = ctx.config.modelGateway.devScriptedModelUrl;
  if (call.choice === null && scripted !== null && ctx.config.devMode) {
    const target: Target = {
      provider: "openai_compatible",
      baseUrl: scripted,
      addresses: null,
      model: SCRIPTED_DEMO_MODEL,
      apiKey: null,
    };
    return Promise.resolve(target);
  }
  if (call.choice === null) {
    throw new Problem("UZ-MODEL-001", {
      detail: "Neither the tenant nor the platform has a model provider configured.",
    });
  }
  return targetOf(ctx, call.lease.tenantId, call.choice);
}

/** Whether the client asked for the final usage chunk (`stream_options.include_usage`). */
const includeUsage = (body: Record<string, unknown>): boolean =>
  (body.stream_options as { include_usage?: unknown } | null | undefined)?.include_usage === true;

/** Whether the request carries an earlier assistant turn: the call continues a run's conversation. */
function continues(messages: unknown): boolean {
  return (
    Array.isArray(messages) &&
    messages.some(
      (m) => typeof m === "object" && m !== null && (m as { role?: unknown }).role === "assistant",
    )
  );
}

/** A non-streamed answer, read whole within the deadline; anything but a JSON object is a 502. */
async function whole(
  forwarded: Awaited<ReturnType<typeof forwardChat>>,
  target: Target,
): Promise<{ text: string; parsed: unknown }> {
  let text: string | null;
  try {
    text = await readCapped(forwarded.response, MODEL_ANSWER_MAX_BYTES);
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
  if (text === null) {
    throw new Problem("UZ-MODEL-002", {
      detail: `The ${target.provider} provider's answer passed ${MODEL_ANSWER_MAX_BYTES} bytes.`,
    });
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
