import type { Lease } from "@fleet/contracts";
import { type Tool, tool } from "ai";
import { z } from "zod";
import type { LeaseTools } from "../../executor.ts";
import { ApiError } from "../../http.ts";
import { observed, type ToolOutcome } from "./frames.ts";
import { gated, toolGateRequest } from "./gate.ts";
import { httpRequest, httpRequestInput } from "./http-request.ts";

function refusal(error: unknown): string {
  if (error instanceof ApiError)
    return `${error.code ?? error.status}: ${String(error.problem.detail ?? "")}`;
  return error instanceof Error ? error.message : String(error);
}

/** The service refused a write the model asked for: the model is told why and may try otherwise. */
async function serviceCall(what: string, write: () => Promise<string>): Promise<ToolOutcome> {
  try {
    return { status: "ok", output: await write() };
  } catch (error) {
    if (error instanceof ApiError)
      return { status: "error", output: `${what} was refused (${refusal(error)})` };
    throw error;
  }
}

const memoryWriteInput = z.object({
  key: z.string().min(1).max(200).describe("The memory's key; writing it again replaces it"),
  content: z.string().min(1).describe("What to remember"),
  category: z.string().min(1).max(64).optional(),
});

const scheduleCreateInput = z.object({
  cron: z.string().describe("A five-field cron expression"),
  message: z.string().min(1).describe("The message the fleet receives at each fire"),
  once: z.boolean().optional().describe("Fire once, then retire"),
  timezone: z.string().optional().describe("An IANA time zone; UTC when left out"),
});

/**
 * The fleet's declared tools that this executor knows, as the model is offered them; each call runs between
 * its live frames. A declared tool this executor does not know is not offered. A call of a tool the lease
 * marks `approval: required` waits for its gate first (`stepText`: the model's text of the step so far,
 * the gate's evidence).
 */
export function agentTools(
  lease: Lease,
  tools: LeaseTools,
  stepText: () => string = () => "",
): Record<string, Tool> {
  const declared = new Set(lease.fleet.tools);
  const approvals = new Set(lease.fleet.tool_approvals ?? []);
  const set: Record<string, Tool> = {};
  const frame = (name: string, callId: string, args: unknown, run: () => Promise<ToolOutcome>) =>
    observed(tools, { callId, name, args }, () =>
      approvals.has(name)
        ? gated(tools, toolGateRequest(lease, { callId, name, args }, stepText()), run)
        : run(),
    ).then((outcome) => outcome.output);
  if (declared.has("http_request"))
    set.http_request = tool({
      description: `Sends one HTTP request to one of these hosts: ${lease.fleet.network_hosts.join(", ") || "none"}. Answers the status and up to 64 KiB of the body.`,
      inputSchema: httpRequestInput,
      execute: (input, { toolCallId, abortSignal }) =>
        frame("http_request", toolCallId, input, () =>
          httpRequest(input, {
            networkHosts: lease.fleet.network_hosts,
            secrets: tools.credentials,
            signal: abortSignal ? AbortSignal.any([abortSignal, tools.signal]) : tools.signal,
          }),
        ),
    });
  if (declared.has("memory_write"))
    set.memory_write = tool({
      description: "Writes one of the fleet's memories, kept across its runs.",
      inputSchema: memoryWriteInput,
      execute: (input, { toolCallId }) =>
        frame("memory_write", toolCallId, input, () =>
          serviceCall("The memory", async () => {
            const { key, ...memory } = input;
            await tools.writeMemory(key, memory);
            return `Remembered ${key}.`;
          }),
        ),
    });
  if (declared.has("schedule_create"))
    set.schedule_create = tool({
      description: "Creates a schedule that sends the fleet a message at each fire of a cron expression.",
      inputSchema: scheduleCreateInput,
      execute: (input, { toolCallId }) =>
        frame("schedule_create", toolCallId, input, () =>
          serviceCall("The schedule", async () => {
            const created = await tools.createSchedule(input);
            return `Scheduled "${input.message}" at ${input.cron}: ${created.schedule_id}, next fire ${created.next_fire_at === null ? "never" : new Date(created.next_fire_at).toISOString()}.`;
          }),
        ),
    });
  return set;
}
