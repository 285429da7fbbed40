import type { ActivityFrame, Lease } from "@fleet/contracts";
import type {
  GateRan,
  GateRequest,
  LeaseContext,
  Memory,
  MemorySearch,
  ReportFields,
  RunnerGate,
  ScheduleRequest,
  ScheduleView,
} from "./api.ts";

/**
 * What an executor answers for one leased event: the report's fields without the lease's identity, which
 * the runner adds. `processed` with `response_text` (and meters when known), or `fleet_error` with
 * `failure_label` and `failure_detail`. The runner fills `wall_ms` when the executor leaves it out.
 */
export type ExecutionResult = ReportFields;

/** What an executor may do while it holds the lease. Every write carries the lease's fencing token. */
export interface LeaseTools {
  /**
   * Aborted when the lease is lost (superseded, expired and taken over) or given up (shutdown): stop
   * working, nothing more will be reported for this lease.
   */
  readonly signal: AbortSignal;
  /**
   * The values of the secrets the fleet declares, by name (a declared secret the workspace does not hold
   * is absent), fetched for this lease only. In memory only: never write them to disk or a log. Emptied
   * when the lease ends. Whatever the run sends back is masked by the service as `[secret:NAME]`.
   */
  readonly credentials: ReadonlyMap<string, Record<string, unknown>>;
  /**
   * The fleet's model, through the service's model gateway (docs/decisions/model-gateway.md): an
   * OpenAI-compatible `baseUrl` and a `fetch` that adds the runner token and the lease's fencing token and
   * ends with the lease, so the executor never holds the token. A refusal meaning the lease was lost throws
   * `LeaseLostError`; a budget refusal stops the run (reported `budget_exceeded`).
   */
  readonly model: ModelAccess;
  /**
   * Publishes one live activity frame. Best-effort: a frame that cannot be delivered is dropped. Text a
   * model wrote through the service's model gateway is published by the gateway itself: never publish it
   * again as `fleet_response_chunk` (docs/decisions/model-gateway.md, "Live output").
   */
  publish(frame: ActivityFrame): Promise<void>;
  /** Creates or replaces one of the fleet's memories. */
  writeMemory(key: string, memory: { content: string; category?: string }): Promise<Memory>;
  /** Creates a schedule for the fleet (source `fleet`). Not retried when it may have landed. */
  createSchedule(schedule: ScheduleRequest): Promise<ScheduleView>;
  /**
   * Opens an approval gate for a proposed action (or answers the one already open for its `action_id`,
   * so a reclaimed run finds its gate again). `awaitApproval` opens and waits in one call.
   */
  openGate(gate: GateRequest): Promise<RunnerGate>;
  /**
   * The gate's state, held open up to `waitMs` (at most 30 s) while it is pending. Throws `LeaseLostError`
   * as soon as the lease is lost or given up.
   */
  waitGate(gateId: string, waitMs: number): Promise<RunnerGate>;
  /**
   * Says the gate's approved action starts now, just before running it: `first: false` means an earlier
   * lease of the event already started it, and it must not run again.
   */
  markGateRan(gateId: string): Promise<GateRan>;
  /** The fleet's memories matching a search, newest first. */
  searchMemories(search: MemorySearch): Promise<{ items: Memory[] }>;
  /**
   * The fleet's previous answered turns before this event, newest first, bounded in tokens (empty from a
   * service that predates it).
   */
  context(): Promise<LeaseContext>;
}

/** How an executor reaches its model: the gateway's base URL and a fetch bound to the lease. */
export interface ModelAccess {
  readonly baseUrl: string;
  readonly fetch: typeof fetch;
}

/**
 * Runs one leased event. Throwing reports `fleet_error` (`failure_label: executor_error`) unless the lease
 * was lost meanwhile. A write refused because the lease was lost throws `LeaseLostError`; let it propagate.
 */
export interface Executor {
  readonly name: string;
  run(lease: Lease, tools: LeaseTools): Promise<ExecutionResult>;
}

/** Thrown by a tool when the service says this runner no longer holds the lease (409 UZ-RUN-005). */
export class LeaseLostError extends Error {
  constructor(readonly leaseId: string) {
    super(`lease ${leaseId} is no longer held by this runner`);
    this.name = "LeaseLostError";
  }
}

/** The text a person or schedule asked the fleet: `request_json`'s `message`, else the payload itself. */
export function messageOf(lease: Lease): string {
  try {
    const payload: unknown = JSON.parse(lease.event.request_json);
    if (typeof payload === "object" && payload !== null && "message" in payload) {
      const { message } = payload as { message: unknown };
      if (typeof message === "string") return message;
    }
  } catch {
    // not JSON: the stored text is the request
  }
  return lease.event.request_json;
}
