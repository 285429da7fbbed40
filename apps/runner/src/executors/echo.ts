import { gateFailureLabels, type Lease } from "@fleet/contracts";
import type { GateRequest, RunnerGate, ScheduleRequest } from "../api.ts";
import { awaitApproval, nameUuid } from "../approval.ts";
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
 * `remember: <key> <content>` asks for a memory; a line `approve: <action>` asks a person to approve the
 * action through a gate. Matching is per line and case-insensitive on the prefix; `line` is the line's
 * index in the message.
 */
export type Directive =
  | { kind: "schedule"; schedule: ScheduleRequest }
  | { kind: "remember"; key: string; content: string }
  | { kind: "approve"; action: string; line: number };

/** Within the contracts' ceilings: a chunk's text is at most 64 KiB, a report's response_text 512 KiB. */
const CHUNK_CHARS = 16 * 1024;
const ANSWER_LIMIT = 256 * 1024;

const scheduleLine = /^\s*schedule:\s+(\S+\s+\S+\s+\S+\s+\S+\s+\S+)((?:\s+(?:once|tz=\S+))*)\s+(\S.*?)\s*$/i;
const rememberLine = /^\s*remember:\s+(\S+)\s+(\S.*?)\s*$/i;
const approveLine = /^\s*approve:\s+(\S.*?)\s*$/i;

export function parseDirectives(message: string): Directive[] {
  const directives: Directive[] = [];
  for (const [index, line] of message.split(/\r?\n/).entries()) {
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
    if (remember) {
      directives.push({ kind: "remember", key: remember[1]!, content: remember[2]! });
      continue;
    }
    const approve = approveLine.exec(line);
    if (approve) directives.push({ kind: "approve", action: approve[1]!, line: index });
  }
  return directives;
}

function refusal(error: unknown): string {
  if (error instanceof ApiError)
    return `${error.code ?? error.status}: ${String(error.problem.detail ?? "")}`;
  return error instanceof Error ? error.message : String(error);
}

/**
 * The gate's action_id: a name-based UUID (version 5) of the event and the line, so a run of the same
 * event (a reclaim after a crash) finds the gate its predecessor opened, and its answer, again.
 */
export function actionIdFor(eventId: string, line: number, action: string): string {
  return nameUuid(`fleet-runner echo approve\n${eventId}\n${line}\n${action}`);
}

/** The gate an `approve:` line opens. */
export function gateRequest(lease: Lease, message: string, action: string, line: number): GateRequest {
  const first = action.split(/\s+/)[0]!;
  return {
    action_id: actionIdFor(lease.event_id, line, action),
    tool_name: "echo",
    action_name: /^[\w.:-]{1,64}$/.test(first) ? first : "action",
    gate_kind: "approval",
    proposed_action: action.slice(0, 16 * 1024),
    // Well under the 64 KiB evidence cap even when every character is escaped in the JSON.
    evidence: { message: message.slice(0, 8 * 1024) },
    blast_radius: "none (demo)",
    detail:
      "The echo demo executor asks before it acts: approving changes nothing anywhere, it only answers with the approved action.",
  };
}

/** Why a gate's action was not run, for the event's report. */
function notApproved(gate: RunnerGate, action: string): ExecutionResult {
  const outcome = gate.outcome === "approved" || gate.outcome === null ? "denied" : gate.outcome;
  const detail =
    outcome === "denied"
      ? `The approval of "${action}" was denied by ${gate.resolved_by ?? "someone"}${gate.reason ? `: ${gate.reason}` : "."}`
      : outcome === "timed_out"
        ? `The approval of "${action}" timed out: nobody answered it in time.`
        : `The approval of "${action}" was withdrawn: the fleet was stopped.`;
  return {
    outcome: "fleet_error",
    failure_label: gate.failure_label ?? gateFailureLabels[outcome],
    failure_detail: detail.slice(0, 2000),
  };
}

/**
 * Asks for approval through a gate and waits for the answer, with started/progress/completed frames:
 * a line for the reply when approved, the event's fleet_error report when not.
 */
async function approve(
  directive: Extract<Directive, { kind: "approve" }>,
  lease: Lease,
  message: string,
  tools: LeaseTools,
): Promise<string | ExecutionResult> {
  const started = Date.now();
  const name = "approvals.request";
  const request = gateRequest(lease, message, directive.action, directive.line);
  await tools.publish({
    tool_call_started: { name, args_redacted: JSON.stringify({ action_name: request.action_name }) },
  });
  let gate: RunnerGate;
  try {
    gate = await awaitApproval(tools, request, () =>
      tools.publish({ tool_call_progress: { name, elapsed_ms: Date.now() - started } }),
    );
  } catch (error) {
    if (error instanceof LeaseLostError) throw error;
    return {
      outcome: "fleet_error",
      failure_label: "approval_unavailable",
      failure_detail: `Could not ask for approval of "${directive.action}" (${refusal(error)})`.slice(
        0,
        2000,
      ),
    };
  }
  await tools.publish({ tool_call_completed: { name, ms: Date.now() - started } });
  if (gate.outcome !== "approved") return notApproved(gate, directive.action);
  return `Approved by ${gate.resolved_by ?? "someone"}: ${gate.approved_action ?? directive.action}`;
}

/** Runs one directive through the tools, with its started/completed frames; answers a line for the reply. */
async function perform(
  directive: Exclude<Directive, { kind: "approve" }>,
  tools: LeaseTools,
): Promise<string> {
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
 * The built-in executor for demos and tests: answers `Echo: <message>`, acts on schedule, remember and
 * approve lines, and publishes the frames a real executor would (started, progress while it works, the answer as a
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
      for (const directive of parseDirectives(message)) {
        if (directive.kind !== "approve") {
          lines.push(await perform(directive, tools));
          continue;
        }
        // An action that is not approved stops the run there: the lines after it are not carried out.
        const answered = await approve(directive, lease, message, tools);
        if (typeof answered !== "string") {
          const ms = Date.now() - started;
          await tools.publish({ tool_call_completed: { name: "echo", ms } });
          return { ...answered, tokens: 0, cost_nanos: 0, wall_ms: ms };
        }
        lines.push(answered);
      }
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
