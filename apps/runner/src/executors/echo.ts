import type { Lease } from "@fleet/contracts";
import type { ScheduleRequest } from "../api.ts";
import { sleep } from "../backoff.ts";
import {
  type ExecutionResult,
  type Executor,
  LeaseLostError,
  type LeaseTools,
  messageOf,
} from "../executor.ts";
import { ApiError } from "../http.ts";

/**
 * A line `schedule: <five-field cron> [once] [tz=<IANA zone>] <message>` asks for a schedule; a line
 * `remember: <key> <content>` asks for a memory. Matching is per line and case-insensitive on the prefix.
 */
export type Directive =
  | { kind: "schedule"; schedule: ScheduleRequest }
  | { kind: "remember"; key: string; content: string };

/** Within the contracts' ceilings: a chunk's text is at most 64 KiB, a report's response_text 512 KiB. */
const CHUNK_CHARS = 16 * 1024;
const ANSWER_LIMIT = 256 * 1024;

const scheduleLine = /^\s*schedule:\s+(\S+\s+\S+\s+\S+\s+\S+\s+\S+)((?:\s+(?:once|tz=\S+))*)\s+(\S.*?)\s*$/i;
const rememberLine = /^\s*remember:\s+(\S+)\s+(\S.*?)\s*$/i;

export function parseDirectives(message: string): Directive[] {
  const directives: Directive[] = [];
  for (const line of message.split(/\r?\n/)) {
    const schedule = scheduleLine.exec(line);
    if (schedule) {
      const options = schedule[2]!.trim().split(/\s+/);
      const zone = options.find((option) => option.toLowerCase().startsWith("tz="));
      directives.push({
        kind: "schedule",
        schedule: {
          cron: schedule[1]!.replace(/\s+/g, " "),
          message: schedule[3]!,
          ...(options.some((option) => option.toLowerCase() === "once") ? { once: true } : {}),
          ...(zone ? { timezone: zone.slice(3) } : {}),
        },
      });
      continue;
    }
    const remember = rememberLine.exec(line);
    if (remember) directives.push({ kind: "remember", key: remember[1]!, content: remember[2]! });
  }
  return directives;
}

function refusal(error: unknown): string {
  if (error instanceof ApiError)
    return `${error.code ?? error.status}: ${String(error.problem.detail ?? "")}`;
  return error instanceof Error ? error.message : String(error);
}

/** Runs one directive through the tools, with its started/completed frames; answers a line for the reply. */
async function perform(directive: Directive, tools: LeaseTools): Promise<string> {
  const started = Date.now();
  const name = directive.kind === "schedule" ? "schedules.create" : "memories.write";
  const args =
    directive.kind === "schedule"
      ? {
          cron: directive.schedule.cron,
          once: directive.schedule.once ?? false,
          timezone: directive.schedule.timezone ?? "UTC",
        }
      : { key: directive.key };
  await tools.publish({ tool_call_started: { name, args_redacted: JSON.stringify(args) } });
  let line: string;
  try {
    if (directive.kind === "schedule") {
      const created = await tools.createSchedule(directive.schedule);
      line = `Scheduled "${directive.schedule.message}" at ${directive.schedule.cron} (${args.timezone}${directive.schedule.once ? ", once" : ""}): ${created.schedule_id}`;
    } else {
      await tools.writeMemory(directive.key, { content: directive.content });
      line = `Remembered ${directive.key}.`;
    }
  } catch (error) {
    if (error instanceof LeaseLostError) throw error;
    line =
      directive.kind === "schedule"
        ? `Could not schedule "${directive.schedule.message}" (${refusal(error)})`
        : `Could not remember ${directive.key} (${refusal(error)})`;
  }
  await tools.publish({ tool_call_completed: { name, ms: Date.now() - started } });
  return line;
}

/**
 * The built-in executor for demos and tests: answers `Echo: <message>`, acts on schedule and remember
 * lines, and publishes the frames a real executor would (started, progress while it works, the answer as a
 * chunk, completed). `delayMs` makes it slow enough to watch, or to kill mid-lease.
 */
export function createEchoExecutor(options: { delayMs?: number } = {}): Executor {
  const delayMs = options.delayMs ?? 0;
  return {
    name: "echo",
    async run(lease: Lease, tools: LeaseTools): Promise<ExecutionResult> {
      const started = Date.now();
      const message = messageOf(lease);
      await tools.publish({
        tool_call_started: { name: "echo", args_redacted: JSON.stringify({ chars: message.length }) },
      });
      while (Date.now() - started < delayMs) {
        await sleep(Math.min(1_000, delayMs - (Date.now() - started)), tools.signal);
        if (tools.signal.aborted) throw new LeaseLostError(lease.lease_id);
        await tools.publish({ tool_call_progress: { name: "echo", elapsed_ms: Date.now() - started } });
      }
      const lines = [`Echo: ${message}`];
      for (const directive of parseDirectives(message)) lines.push(await perform(directive, tools));
      const answer = lines.join("\n").slice(0, ANSWER_LIMIT);
      for (let at = 0; at < answer.length; at += CHUNK_CHARS) {
        await tools.publish({ fleet_response_chunk: { text: answer.slice(at, at + CHUNK_CHARS) } });
      }
      const ms = Date.now() - started;
      await tools.publish({ tool_call_completed: { name: "echo", ms } });
      return { outcome: "processed", response_text: answer, tokens: 0, cost_nanos: 0, wall_ms: ms };
    },
  };
}
