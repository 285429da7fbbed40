import { SCRIPTED_MODEL_ID, type ScriptedStep } from "./scripted-model.ts";

/**
 * The OpenAI chat completions wire of a scripted step: one JSON answer, or a stream of SSE chunks (the
 * text in word-sized deltas, the tool call, the finish, the usage chunk when asked, `[DONE]`).
 */

/** About four characters a token, as the gateway's own estimate counts. */
const tokens = (text: string) => Math.max(1, Math.ceil(text.length / 4));

export interface Usage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
}

export function usageOf(body: Record<string, unknown>, step: ScriptedStep): Usage {
  const prompt = tokens(JSON.stringify(body.messages ?? []));
  const completion = tokens(step.text + (step.toolCall?.arguments ?? ""));
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion };
}

const finishOf = (step: ScriptedStep) => (step.toolCall === null ? "stop" : "tool_calls");

function toolCalls(step: ScriptedStep) {
  if (step.toolCall === null) return undefined;
  const { id, name, arguments: args } = step.toolCall;
  return [{ id, type: "function", function: { name, arguments: args } }];
}

/** The unstreamed answer. */
export function completionJson(
  id: string,
  created: number,
  body: Record<string, unknown>,
  step: ScriptedStep,
) {
  return {
    id,
    object: "chat.completion",
    created,
    model: SCRIPTED_MODEL_ID,
    choices: [
      {
        index: 0,
        message: { role: "assistant", content: step.text, tool_calls: toolCalls(step) },
        finish_reason: finishOf(step),
      },
    ],
    usage: usageOf(body, step),
  };
}

/** The streamed answer's `data:` payloads, in order (the last is `[DONE]`). */
export function streamPayloads(
  id: string,
  created: number,
  body: Record<string, unknown>,
  step: ScriptedStep,
): string[] {
  const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
    JSON.stringify({
      id,
      object: "chat.completion.chunk",
      created,
      model: SCRIPTED_MODEL_ID,
      choices: [{ index: 0, delta, finish_reason: finish }],
    });
  const payloads = [chunk({ role: "assistant", content: "" })];
  // Word by word (each with its leading space), so a watcher sees the text arrive.
  for (const piece of step.text.match(/\s*\S+/g) ?? []) payloads.push(chunk({ content: piece }));
  const calls = toolCalls(step);
  if (calls !== undefined)
    payloads.push(chunk({ tool_calls: calls.map((call, index) => ({ index, ...call })) }));
  payloads.push(chunk({}, finishOf(step)));
  const options = body.stream_options as { include_usage?: unknown } | undefined;
  if (options?.include_usage === true)
    payloads.push(
      JSON.stringify({
        id,
        object: "chat.completion.chunk",
        created,
        model: SCRIPTED_MODEL_ID,
        choices: [],
        usage: usageOf(body, step),
      }),
    );
  payloads.push("[DONE]");
  return payloads;
}
