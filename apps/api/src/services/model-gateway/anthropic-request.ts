import { Problem } from "@fleet/contracts";

/** The Messages API version the gateway speaks (`anthropic-version`). */
export const ANTHROPIC_VERSION = "2023-06-01";
/** Anthropic requires `max_tokens`; a request naming neither it nor `max_completion_tokens` gets this. */
export const ANTHROPIC_DEFAULT_MAX_TOKENS = 4096;

type Json = Record<string, unknown>;
type Block = Json;

const isObject = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** 400 UZ-MODEL-009: a part of the OpenAI request the gateway does not translate; nothing is forwarded. */
function untranslatable(detail: string): Problem {
  return new Problem("UZ-MODEL-009", { detail: `Not translatable to the anthropic provider: ${detail}` });
}

/** A message's content as text: a string, or an array of `text` (and `refusal`) parts; null/absent is "". */
function textOf(content: unknown, where: string): string {
  if (content === undefined || content === null) return "";
  if (typeof content === "string") return content;
  if (!Array.isArray(content))
    throw untranslatable(`${where}.content must be a string or an array of parts.`);
  return content
    .map((part, i) => {
      if (isObject(part) && part.type === "text" && typeof part.text === "string") return part.text;
      if (isObject(part) && part.type === "refusal" && typeof part.refusal === "string") return part.refusal;
      const type = isObject(part) && typeof part.type === "string" ? part.type.slice(0, 40) : "unknown";
      throw untranslatable(
        `${where}.content[${i}] is a ${JSON.stringify(type)} part; only text is translated.`,
      );
    })
    .join("");
}

/** Text content as Anthropic text blocks (none for empty text: Anthropic refuses empty blocks). */
function textBlocks(content: unknown, where: string): Block[] {
  const text = textOf(content, where);
  return text === "" ? [] : [{ type: "text", text }];
}

/** An assistant's `tool_calls` as `tool_use` blocks, the arguments parsed (a JSON object, "" as {}). */
function toolUses(calls: unknown, where: string): Block[] {
  if (calls === undefined || calls === null) return [];
  if (!Array.isArray(calls)) throw untranslatable(`${where}.tool_calls must be an array.`);
  return calls.map((call, i) => {
    const at = `${where}.tool_calls[${i}]`;
    const fn = isObject(call) ? call.function : undefined;
    if (!isObject(call) || typeof call.id !== "string" || !isObject(fn) || typeof fn.name !== "string") {
      throw untranslatable(`${at} must be a function call with an id and a name.`);
    }
    let input: unknown = {};
    if (typeof fn.arguments === "string" && fn.arguments.trim() !== "") {
      try {
        input = JSON.parse(fn.arguments);
      } catch {
        input = undefined;
      }
    } else if (fn.arguments !== undefined && fn.arguments !== null && fn.arguments !== "") input = undefined;
    if (!isObject(input)) throw untranslatable(`${at}.function.arguments must be a JSON object's text.`);
    return { type: "tool_use", id: call.id, name: fn.name, input };
  });
}

/**
 * The OpenAI `messages` as Anthropic's `system` and `messages`: system and developer messages join the
 * `system` text; assistant text and tool calls become text and `tool_use` blocks; each `tool` message a
 * user `tool_result` block; consecutive messages of one role merge into one (tool results first, as
 * Anthropic wants them right after the `tool_use`).
 */
function translateMessages(messages: unknown[]): { system: string[]; messages: Json[] } {
  const system: string[] = [];
  const out: { role: "user" | "assistant"; content: Block[] }[] = [];
  const push = (role: "user" | "assistant", blocks: Block[]) => {
    const last = out.at(-1);
    if (last !== undefined && last.role === role) {
      const results = (b: Block) => b.type === "tool_result";
      last.content = [...last.content.filter(results), ...blocks.filter(results)].concat(
        last.content.filter((b) => !results(b)),
        blocks.filter((b) => !results(b)),
      );
    } else out.push({ role, content: blocks });
  };
  messages.forEach((message, i) => {
    const where = `messages[${i}]`;
    if (!isObject(message)) throw untranslatable(`${where} must be an object.`);
    const role = message.role;
    if (role === "system" || role === "developer") {
      const text = textOf(message.content, where);
      if (text !== "") system.push(text);
    } else if (role === "user") {
      push("user", textBlocks(message.content, where));
    } else if (role === "assistant") {
      push("assistant", [...textBlocks(message.content, where), ...toolUses(message.tool_calls, where)]);
    } else if (role === "tool") {
      if (typeof message.tool_call_id !== "string")
        throw untranslatable(`${where}.tool_call_id is required.`);
      const text = textOf(message.content, where);
      const result: Block = { type: "tool_result", tool_use_id: message.tool_call_id };
      if (text !== "") result.content = text;
      push("user", [result]);
    } else {
      const name = typeof role === "string" ? JSON.stringify(role.slice(0, 40)) : "missing";
      throw untranslatable(
        `${where}.role ${name} is not translated (system, developer, user, assistant, tool).`,
      );
    }
  });
  return { system, messages: out.filter((m) => m.content.length > 0) };
}

/** OpenAI function tools as Anthropic tools. */
function translateTools(tools: unknown): Json[] {
  if (!Array.isArray(tools)) throw untranslatable("tools must be an array.");
  return tools.map((tool, i) => {
    const fn = isObject(tool) ? tool.function : undefined;
    if (!isObject(tool) || tool.type !== "function" || !isObject(fn) || typeof fn.name !== "string") {
      throw untranslatable(`tools[${i}] must be a function tool with a name.`);
    }
    const schema = fn.parameters === undefined ? { type: "object", properties: {} } : fn.parameters;
    if (!isObject(schema))
      throw untranslatable(`tools[${i}].function.parameters must be a JSON schema object.`);
    const out: Json = { name: fn.name, input_schema: schema };
    if (typeof fn.description === "string") out.description = fn.description;
    return out;
  });
}

/** `tool_choice` (and `parallel_tool_calls: false`) as Anthropic's tool_choice; undefined leaves its default. */
function translateToolChoice(choice: unknown, parallel: unknown): Json | undefined {
  let out: Json | undefined;
  if (choice === undefined || choice === null || choice === "auto") out = undefined;
  else if (choice === "none") out = { type: "none" };
  else if (choice === "required") out = { type: "any" };
  else if (isObject(choice) && choice.type === "function" && isObject(choice.function)) {
    const name = choice.function.name;
    if (typeof name !== "string") throw untranslatable("tool_choice.function.name must be a string.");
    out = { type: "tool", name };
  } else throw untranslatable("tool_choice must be none, auto, required or a function.");
  if (parallel === false && out?.type !== "none")
    out = { ...(out ?? { type: "auto" }), disable_parallel_tool_use: true };
  return out;
}

function maxTokens(body: Json): number {
  const named = body.max_completion_tokens ?? body.max_tokens;
  if (named === undefined || named === null) return ANTHROPIC_DEFAULT_MAX_TOKENS;
  if (typeof named !== "number" || !Number.isSafeInteger(named) || named < 1) {
    throw untranslatable("max_tokens must be a positive integer.");
  }
  return named;
}

/**
 * An OpenAI chat-completions body as an Anthropic Messages body for `model`
 * (docs/decisions/model-gateway.md, "Anthropic translation"). Sampling knobs Anthropic has
 * (temperature, top_p, stop) are carried; OpenAI-only ones (seed, penalties, logprobs,
 * response_format, user, stream_options…) are dropped; n > 1 and non-text content parts are refused
 * with 400 UZ-MODEL-009.
 */
export function toAnthropic(body: Json, model: string): Json {
  if (!Array.isArray(body.messages)) throw untranslatable("messages must be an array.");
  if (body.n !== undefined && body.n !== null && body.n !== 1) throw untranslatable("n must be 1.");
  const { system, messages } = translateMessages(body.messages);
  const out: Json = { model, max_tokens: maxTokens(body), messages };
  if (system.length > 0) out.system = system.join("\n\n");
  for (const knob of ["temperature", "top_p"] as const) {
    const value = body[knob];
    if (value === undefined || value === null) continue;
    if (typeof value !== "number") throw untranslatable(`${knob} must be a number.`);
    out[knob] = value;
  }
  const stop = body.stop;
  if (typeof stop === "string") out.stop_sequences = [stop];
  else if (Array.isArray(stop) && stop.every((s) => typeof s === "string")) {
    if (stop.length > 0) out.stop_sequences = stop;
  } else if (stop !== undefined && stop !== null) throw untranslatable("stop must be a string or strings.");
  if (body.tools !== undefined && body.tools !== null) {
    const tools = translateTools(body.tools);
    if (tools.length > 0) out.tools = tools;
  }
  const choice = translateToolChoice(body.tool_choice, body.parallel_tool_calls);
  if (choice !== undefined) out.tool_choice = choice;
  if (body.stream === true) out.stream = true;
  return out;
}
