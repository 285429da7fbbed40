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

const memorySearchInput = z.object({
  query: z
    .string()
    .min(1)
    .max(500)
    .optional()
    .describe("Words that must all appear in a memory's key or content"),
  category: z.string().min(1).max(200).optional().describe("Only memories of this category"),
  limit: z.number().int().min(1).max(20).optional().describe("At most this many (5 when left out)"),
});

const scheduleCreateInput = z.object({
  cron: z.string().describe("A five-field cron expression"),
  message: z.string().min(1).describe("The message the fleet receives at each fire"),
  once: z.boolean().optional().describe("Fire once, then retire"),
  timezone: z.string().optional().describe("An IANA time zone; UTC when left out"),
});

/** One tool this executor knows: what the model is told, its arguments, and what a call does. */
interface KnownTool<S extends z.ZodType> {
  description: string;
  inputSchema: S;
  run(input: z.output<S>, signal: AbortSignal): Promise<ToolOutcome>;
}

function known<S extends z.ZodType>(spec: KnownTool<S>): KnownTool<S> {
  return spec;
}

/** The tools this executor knows, for a lease. */
function knownTools(lease: Lease, tools: LeaseTools) {
  return {
    http_request: known({
      description: `Sends one HTTP request to one of these hosts: ${lease.fleet.network_hosts.join(", ") || "none"}. Answers the status and up to 64 KiB of the body.`,
      inputSchema: httpRequestInput,
      run: (input, signal) =>
        httpRequest(input, { networkHosts: lease.fleet.network_hosts, secrets: tools.credentials, signal }),
    }),
    memory_write: known({
      description: "Writes one of the fleet's memories, kept across its runs.",
      inputSchema: memoryWriteInput,
      run: (input) =>
        serviceCall("The memory", async () => {
          const { key, ...memory } = input;
          await tools.writeMemory(key, memory);
          return `Remembered ${key}.`;
        }),
    }),
    memory_search: known({
      description:
        "Searches the fleet's memories, kept across its runs: newest first, by words and/or category.",
      inputSchema: memorySearchInput,
      run: (input) =>
        serviceCall("The memory search", async () => {
          const { items } = await tools.searchMemories(input);
          if (items.length === 0) return "No memory matches.";
          return JSON.stringify(
            items.map(({ key, content, category, updated_at }) => ({
              key,
              content,
              category,
              updated_at: new Date(updated_at).toISOString(),
            })),
          );
        }),
    }),
    schedule_create: known({
      description: "Creates a schedule that sends the fleet a message at each fire of a cron expression.",
      inputSchema: scheduleCreateInput,
      run: (input) =>
        serviceCall("The schedule", async () => {
          const created = await tools.createSchedule(input);
          return `Scheduled "${input.message}" at ${input.cron}: ${created.schedule_id}, next fire ${created.next_fire_at === null ? "never" : new Date(created.next_fire_at).toISOString()}.`;
        }),
    }),
  } satisfies Record<string, KnownTool<z.ZodType>>;
}

/**
 * An approver's edited arguments, checked against the tool's schema again (the service checked them as
 * they were given): arguments that do not fit are refused, the tool not run.
 */
function amendedRun<S extends z.ZodType>(spec: KnownTool<S>, amended: unknown, signal: AbortSignal) {
  const parsed = spec.inputSchema.safeParse(amended);
  if (!parsed.success)
    return Promise.resolve<ToolOutcome>({
      status: "refused",
      output: `The approver's changed arguments do not fit this tool (${parsed.error.issues[0]?.message ?? "invalid"}), so it did not run.`,
    });
  return spec.run(parsed.data, signal);
}

/**
 * The fleet's declared tools that this executor knows, as the model is offered them; each call runs between
 * its live frames. A declared tool this executor does not know is not offered. A call of a tool the lease
 * gates (`tool_approvals`: marked `approval: required`, or named by the workspace's approval policy) waits
 * for its gate first (`stepText`: the model's text of the step so far, the gate's evidence); the gate
 * carries the tool's argument schema, so an approver's edit is checked when it is made, and an approved edit
 * runs with the edited arguments.
 */
export function agentTools(
  lease: Lease,
  tools: LeaseTools,
  stepText: () => string = () => "",
): Record<string, Tool> {
  const declared = new Set(lease.fleet.tools);
  const approvals = new Set(lease.fleet.tool_approvals ?? []);
  const set: Record<string, Tool> = {};
  for (const [name, spec] of Object.entries(knownTools(lease, tools)) as [string, KnownTool<z.ZodType>][]) {
    if (!declared.has(name)) continue;
    set[name] = tool({
      description: spec.description,
      inputSchema: spec.inputSchema,
      execute: (input: unknown, { toolCallId, abortSignal }) => {
        const signal = abortSignal ? AbortSignal.any([abortSignal, tools.signal]) : tools.signal;
        const call = { callId: toolCallId, name, args: input };
        return observed(tools, call, () =>
          approvals.has(name)
            ? gated(
                tools,
                toolGateRequest(lease, call, stepText(), argumentSchema(spec.inputSchema)),
                (amended) =>
                  amended === undefined ? spec.run(input, signal) : amendedRun(spec, amended, signal),
              )
            : spec.run(input, signal),
        ).then((outcome) => outcome.output);
      },
    });
  }
  return set;
}

/** A tool's arguments as JSON Schema, as the gate carries it (the service validates edits against it). */
function argumentSchema(schema: z.ZodType): Record<string, unknown> {
  const { $schema: _, ...json } = z.toJSONSchema(schema, { io: "input" }) as Record<string, unknown>;
  return json;
}
