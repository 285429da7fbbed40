/**
 * The scripted demo model: a dev-mode stand-in for a real model, so `pnpm start` shows a gated agent run
 * end to end with no provider configured. It is NOT a model: it reads which tools it was offered and what
 * the conversation's tool results say, and plays one fixed script (read the status board, remember what
 * it shows — the gated step — then answer). It speaks the OpenAI chat completions wire (streamed or not,
 * tool calls, usage), so the model gateway relays it as it would any openai_compatible endpoint.
 */

/** The model id it answers with (the gateway's target names it too). */
export const SCRIPTED_MODEL_ID = "scripted-demo";
/** Every answer the script ends with says what wrote it. */
export const SCRIPTED_NOTE = "(Scripted demo model — not a real model.)";

interface ChatMessage {
  role?: unknown;
  content?: unknown;
  tool_calls?: unknown;
  tool_call_id?: unknown;
}

export interface ScriptedCall {
  id: string;
  name: string;
  arguments: string;
}

/** One step of the script: the text the model writes, and the tool it calls (none: the final answer). */
export interface ScriptedStep {
  text: string;
  toolCall: ScriptedCall | null;
}

/** The names of the tools a request offers (`tools: [{type: "function", function: {name}}]`). */
function offeredTools(body: Record<string, unknown>): Set<string> {
  const names = new Set<string>();
  if (!Array.isArray(body.tools)) return names;
  for (const entry of body.tools) {
    const name = (entry as { function?: { name?: unknown } } | null)?.function?.name;
    if (typeof name === "string") names.add(name);
  }
  return names;
}

/** Whether a request offers the tools the script plays (`http_request` and `memory_write`). */
export function offersBoardTools(body: Record<string, unknown>): boolean {
  const tools = offeredTools(body);
  return tools.has("http_request") && tools.has("memory_write");
}

/** The tool results so far, by the call id the script gave them. */
function toolResults(messages: ChatMessage[]): Map<string, string> {
  const results = new Map<string, string>();
  for (const message of messages) {
    if (message.role !== "tool" || typeof message.tool_call_id !== "string") continue;
    results.set(message.tool_call_id, contentText(message.content));
  }
  return results;
}

function contentText(content: unknown): string {
  if (typeof content === "string") return content;
  if (Array.isArray(content)) return content.map((part) => (part as { text?: unknown })?.text ?? "").join("");
  return "";
}

/** The last user turn: what the person asked. */
function lastUserText(messages: ChatMessage[]): string {
  for (let index = messages.length - 1; index >= 0; index--)
    if (messages[index]!.role === "user") return contentText(messages[index]!.content);
  return "";
}

interface BoardService {
  name?: unknown;
  status?: unknown;
  note?: unknown;
}

/** What the board's answer (as the http_request tool reports it: `HTTP 200`, a blank line, the body) shows. */
export function boardSummary(result: string): string {
  const body = result.slice(result.indexOf("\n\n") + 2);
  try {
    const services = (JSON.parse(body) as { services?: BoardService[] }).services ?? [];
    const trouble = services.filter((service) => service.status !== "operational");
    if (services.length === 0) return "the board lists no services";
    if (trouble.length === 0) return `all ${services.length} services are operational`;
    return trouble
      .map(
        (service) =>
          `${String(service.name)} is ${String(service.status)}${service.note ? ` (${String(service.note)})` : ""}`,
      )
      .join("; ");
  } catch {
    return `the board answered ${JSON.stringify(result.split("\n")[0] ?? "")}`;
  }
}

/**
 * The script's next step for a request. The call ids are fixed: a run's tool results name them, and a
 * reclaimed run repeating them finds the gate it opened before (its action id derives from the call id).
 */
export function nextStep(body: Record<string, unknown>, boardUrl: string): ScriptedStep {
  const messages = (Array.isArray(body.messages) ? body.messages : []) as ChatMessage[];
  // This turn's results only: earlier runs' steps in the context (same call ids) are history, not progress.
  const lastUser = messages.findLastIndex((message) => message.role === "user");
  const results = toolResults(messages.slice(lastUser + 1));
  const board = results.get("call_read_board");
  const remembered = results.get("call_remember");
  if (!offersBoardTools(body)) {
    const asked = lastUserText(messages);
    return {
      text: `You said: ${asked || "nothing"}. This fleet offers me no status board tools, so that is all I can do. ${SCRIPTED_NOTE}`,
      toolCall: null,
    };
  }
  if (board === undefined) {
    return {
      text: "Let me read the status board first.",
      toolCall: {
        id: "call_read_board",
        name: "http_request",
        arguments: JSON.stringify({ method: "GET", url: `${boardUrl}/status` }),
      },
    };
  }
  const summary = boardSummary(board);
  if (remembered === undefined) {
    return {
      text: `The board says ${summary}. I would like to remember that for later runs; writing a memory needs your approval.`,
      toolCall: {
        id: "call_remember",
        name: "memory_write",
        arguments: JSON.stringify({
          key: "status-board",
          content: `Last reading of the status board: ${summary}.`,
          category: "incidents",
        }),
      },
    };
  }
  const kept = /^Remembered /.test(remembered)
    ? "I remembered it as the memory status-board."
    : `I did not remember it: ${remembered.split("\n")[0]}`;
  return { text: `The status board says ${summary}. ${kept} ${SCRIPTED_NOTE}`, toolCall: null };
}
