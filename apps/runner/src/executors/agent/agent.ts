import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import type { Lease } from "@fleet/contracts";
import { APICallError, type ModelMessage, RetryError, stepCountIs, streamText } from "ai";
import {
  type ExecutionResult,
  type Executor,
  LeaseLostError,
  type LeaseTools,
  type ModelAccess,
  messageOf,
} from "../../executor.ts";
import { ApiError } from "../../http.ts";
import { type McpSessions, NO_MCP, withMcpServers } from "./mcp.ts";
import { mcpTools, unavailableNote } from "./mcp-tools.ts";
import { agentTools } from "./tools.ts";

/** Model calls (steps) one run may make when its definition's `agent.max_steps` says none. */
export const DEFAULT_MAX_STEPS = 16;
/** The runner's own cap on any definition's steps, unless `FLEET_RUNNER_AGENT_MAX_STEPS` sets another. */
export const DEFAULT_STEP_CAP = 64;
/** How long one run may take, model calls and tools together; `FLEET_RUNNER_AGENT_MAX_MS`. */
export const DEFAULT_MAX_RUN_MS = 10 * 60_000;
/** Within the contracts' ceiling of a report's response_text (512 KiB). */
const ANSWER_LIMIT = 256 * 1024;

export interface AgentOptions {
  /** The runner's cap: a definition's `agent.max_steps` (16 when absent) is bounded by it. */
  maxSteps?: number;
  maxRunMs?: number;
}

function failed(label: string, detail: string, started: number): ExecutionResult {
  return {
    outcome: "fleet_error",
    failure_label: label,
    failure_detail: detail.slice(0, 2000),
    wall_ms: Date.now() - started,
  };
}

/** A refusal of the gateway's that no retry changes (its 409s: no provider, the key refused, …). */
class GatewayRefusal extends Error {
  constructor(
    readonly code: string,
    detail: string,
  ) {
    super(`${code}: ${detail}`);
    this.name = "GatewayRefusal";
  }
}

/**
 * The lease's model fetch, with the gateway's 409s thrown as `GatewayRefusal`: the AI SDK retries a 409
 * (as it does 429 and 5xx), and a retry of "no provider" or "the key was refused" would only repeat the
 * refusal, or, were the next answer different, hide it.
 */
function refusingFetch(access: ModelAccess): typeof fetch {
  return async (input, init) => {
    const answer = await access.fetch(input, init);
    if (answer.status !== 409) return answer;
    const problem = (await answer.json().catch(() => ({}))) as { error_code?: unknown; detail?: unknown };
    throw new GatewayRefusal(String(problem.error_code ?? "409"), String(problem.detail ?? "refused"));
  };
}

/** What a model call's failure says, from the gateway's problem when there is one. */
function describeFailure(failure: unknown): string {
  const error = RetryError.isInstance(failure) ? failure.lastError : failure;
  if (APICallError.isInstance(error)) {
    try {
      const problem = JSON.parse(error.responseBody ?? "") as { error_code?: string; detail?: string };
      if (problem.error_code) return `${problem.error_code}: ${problem.detail ?? error.message}`;
    } catch {
      // not a problem document: the library's message
    }
    return `${error.statusCode ?? "no status"}: ${error.message}`;
  }
  return error instanceof Error ? error.message : String(error);
}

/**
 * The `agent` executor: the AI SDK's tool loop against the fleet's model, reached through the service's
 * model gateway (the gateway publishes the model's text as chunk frames: this executor publishes only
 * tool-call frames). System prompt: the fleet's instructions; user turn: the message; tools: the fleet's
 * declared ones it knows. Bounded by a step cap and a run time, each reported as fleet_error
 * (`step_limit`, `time_limit`); a lost lease aborts the model stream and the tool calls at once.
 */
export function createAgentExecutor(options: AgentOptions = {}): Executor {
  const stepCap = options.maxSteps ?? DEFAULT_STEP_CAP;
  const maxRunMs = options.maxRunMs ?? DEFAULT_MAX_RUN_MS;
  return withMcpServers({
    name: "agent",
    async run(lease: Lease, tools: LeaseTools, mcp: McpSessions = NO_MCP): Promise<ExecutionResult> {
      const started = Date.now();
      const maxSteps = Math.min(lease.fleet.max_steps ?? DEFAULT_MAX_STEPS, stepCap);
      const gateway = createOpenAICompatible({
        name: "fleet-gateway",
        baseURL: tools.model.baseUrl,
        fetch: refusingFetch(tools.model),
        includeUsage: true,
      });
      const overtime = AbortSignal.timeout(maxRunMs);
      const signal = AbortSignal.any([tools.signal, overtime]);
      let failure: unknown;
      // The model's text of the current step: a gated tool call's evidence.
      let stepText = "";
      // The fleet's previous turns, oldest first, before this message (bounded by the service in tokens).
      // A refusal of the read (not a lost lease) leaves the run without context rather than failing it.
      const { turns } = await tools.context().catch((error: unknown) => {
        if (error instanceof ApiError) return { turns: [] };
        throw error;
      });
      const history: ModelMessage[] = turns.toReversed().flatMap((turn) => [
        { role: "user" as const, content: turn.request },
        { role: "assistant" as const, content: turn.response },
      ]);
      const result = streamText({
        // The gateway sends the model the fleet resolves to, whatever this names.
        model: gateway.chatModel("fleet-model"),
        system: lease.fleet.instructions + unavailableNote(mcp),
        messages: [...history, { role: "user", content: messageOf(lease) }],
        tools: {
          ...agentTools(lease, tools, () => stepText),
          ...mcpTools(lease, tools, mcp, () => stepText),
        },
        stopWhen: stepCountIs(maxSteps),
        abortSignal: signal,
        onError: ({ error }) => {
          failure ??= error;
        },
      });
      // Reading the stream drives the loop; errors arrive through onError and as error parts.
      for await (const part of result.fullStream) {
        if (part.type === "error") failure ??= part.error;
        else if (part.type === "start-step") stepText = "";
        else if (part.type === "text-delta") stepText += part.text;
      }
      if (tools.signal.aborted || failure instanceof LeaseLostError) throw new LeaseLostError(lease.lease_id);
      if (overtime.aborted)
        return failed(
          "time_limit",
          `The run took longer than its ${maxRunMs} ms bound and was stopped.`,
          started,
        );
      if (failure !== undefined) return failed("model_error", describeFailure(failure), started);
      const steps = await result.steps;
      const last = steps.at(-1);
      if (last?.finishReason === "tool-calls")
        return failed(
          "step_limit",
          `The model was still calling tools after ${steps.length} steps, the run's bound (${maxSteps}).`,
          started,
        );
      const usage = await result.totalUsage;
      return {
        outcome: "processed",
        response_text: (last?.text ?? "").slice(0, ANSWER_LIMIT),
        ...(usage.totalTokens === undefined ? {} : { tokens: usage.totalTokens }),
        wall_ms: Date.now() - started,
      };
    },
  });
}
