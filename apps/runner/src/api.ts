import type { ActivityFrame, CapabilityReport, Lease, memoryItem, scheduleView } from "@fleet/contracts";
import { publishActivity } from "@fleet/contracts/activity/publish-activity";
import type { runnerGate } from "@fleet/contracts/approvals/approval-gate";
import { markGateRan } from "@fleet/contracts/approvals/mark-gate-ran";
import { openGate } from "@fleet/contracts/approvals/open-gate";
import { waitGate } from "@fleet/contracts/approvals/wait-gate";
import { createFleetSchedule } from "@fleet/contracts/fleet-schedules/create-fleet-schedule";
import { acquireLease } from "@fleet/contracts/leases/acquire-lease";
import { leaseCredentials } from "@fleet/contracts/leases/lease-credentials";
import { leaseContext, searchLeaseMemories } from "@fleet/contracts/leases/lease-reads";
import { releaseLease } from "@fleet/contracts/leases/release-lease";
import { renewLease } from "@fleet/contracts/leases/renew-lease";
import { reportLease } from "@fleet/contracts/leases/report-lease";
import { writeMemory } from "@fleet/contracts/memories/write-memory";
import { heartbeat } from "@fleet/contracts/runners/heartbeat";
import type { z } from "zod";
import type { ModelAccess } from "./executor.ts";
import { ApiError, type HttpClient } from "./http.ts";

export type { CapabilityReport };
export type HeartbeatAnswer = z.output<typeof heartbeat.output>;
export type AcquireAnswer = z.output<typeof acquireLease.output>;
export type Memory = z.output<typeof memoryItem>;
export type LeaseCredentials = z.output<typeof leaseCredentials.output>;
type ReportBody = NonNullable<z.input<typeof reportLease.input>>;
export type ReportFields = Omit<ReportBody, "lease_id" | "event_id" | "fencing_token">;

type ScheduleBody = NonNullable<z.input<typeof createFleetSchedule.input>>;
/** The schedule creation request, less what the runner adds (the lease and its fencing token). */
export type ScheduleRequest = Omit<ScheduleBody, "lease_id" | "fencing_token">;
export type ScheduleView = z.output<typeof scheduleView>;

type GateBody = NonNullable<z.input<typeof openGate.input>>;
/** The gate an executor opens, less what the runner adds (the lease and its fencing token). */
export type GateRequest = Omit<GateBody, "lease_id" | "fencing_token">;
/** A gate as its runner reads it: status, and once answered the outcome, approved_action, failure_label. */
export type RunnerGate = z.output<typeof runnerGate>;
/** A search of the fleet's memories: all words of `query` (key and content), a category, at most `limit` (1-20). */
export interface MemorySearch {
  query?: string;
  category?: string;
  limit?: number;
}
/** The fleet's previous turns, newest first, and their size in tokens. */
export type LeaseContext = z.output<typeof leaseContext.output>;
/** The answer to `markGateRan`: whether this lease is the one that runs the approved action. */
export type GateRan = z.output<typeof markGateRan.output>;

/** A refusal that means this runner no longer holds the lease: stop working on it and drop it. */
export function isLeaseLost(error: unknown): boolean {
  return error instanceof ApiError && (error.code === "UZ-RUN-005" || error.code === "UZ-RUN-001");
}

/** The service says the run has spent its budget (409 UZ-BUDGET-001): stop it and report. */
export function isOverBudget(error: unknown): boolean {
  return error instanceof ApiError && error.code === "UZ-BUDGET-001";
}

/** The token no longer verifies: the runner was revoked (or deleted). */
export function isUnauthorized(error: unknown): boolean {
  return error instanceof ApiError && error.status === 401;
}

/** The runner routes of /v1 (`/v1/runners/me/*`), one method per route, with each call's retry policy. */
export class RunnerApi {
  constructor(
    private readonly http: HttpClient,
    private readonly token: string,
  ) {}

  heartbeat(report: CapabilityReport): Promise<HeartbeatAnswer> {
    return this.http.call(heartbeat, { token: this.token, body: { capability_report: report }, attempts: 3 });
  }

  /** Long-polls; a network error is retried (a lease granted to a lost answer expires and is reclaimed). */
  acquire(waitMs: number, signal: AbortSignal): Promise<AcquireAnswer> {
    return this.http.call(acquireLease, {
      token: this.token,
      body: { wait_ms: waitMs },
      signal,
      attempts: 3,
      timeoutMs: waitMs + 15_000,
    });
  }

  renew(lease: Lease, signal?: AbortSignal): Promise<{ lease_id: string; expires_at: number }> {
    return this.http.call(renewLease, {
      token: this.token,
      params: { lease_id: lease.lease_id },
      body: { fencing_token: lease.fencing_token },
      signal,
      attempts: 3,
    });
  }

  /** Gives the lease up unfinished, so its work is leased again now rather than after the TTL. */
  release(lease: Lease, signal?: AbortSignal): Promise<unknown> {
    return this.http.call(releaseLease, {
      token: this.token,
      params: { lease_id: lease.lease_id },
      body: { fencing_token: lease.fencing_token },
      signal,
      attempts: 1,
    });
  }

  /** Retried: a repeat of a report that landed is refused (the lease has ended), never applied twice. */
  report(lease: Lease, fields: ReportFields, signal?: AbortSignal): Promise<unknown> {
    return this.http.call(reportLease, {
      token: this.token,
      body: {
        ...fields,
        lease_id: lease.lease_id,
        event_id: lease.event_id,
        fencing_token: lease.fencing_token,
      },
      signal,
      attempts: 8,
    });
  }

  /**
   * The values of the secrets the lease's fleet declares, fenced by the lease's token. Retried: a repeat
   * delivers the same values again (each delivery is audited). The answer is never logged.
   */
  credentials(lease: Lease, signal?: AbortSignal): Promise<LeaseCredentials> {
    return this.http.call(leaseCredentials, {
      token: this.token,
      params: { lease_id: lease.lease_id },
      body: { fencing_token: lease.fencing_token },
      signal,
      attempts: 3,
    });
  }

  /** Best-effort publication: one quick retry, no more. */
  activity(lease: Lease, frames: ActivityFrame[]): Promise<unknown> {
    return this.http.call(publishActivity, {
      token: this.token,
      params: { lease_id: lease.lease_id },
      body: { frames },
      attempts: 2,
    });
  }

  writeMemory(lease: Lease, key: string, memory: { content: string; category?: string }): Promise<Memory> {
    return this.http.call(writeMemory, {
      token: this.token,
      params: { lease_id: lease.lease_id, key },
      body: { ...memory, fencing_token: lease.fencing_token },
    });
  }

  /** Idempotent by action_id (a repeat answers the existing gate with 200), so retried like a read. */
  openGate(lease: Lease, gate: GateRequest): Promise<RunnerGate> {
    return this.http.call(openGate, {
      token: this.token,
      params: { lease_id: lease.lease_id },
      body: { ...gate, fencing_token: lease.fencing_token },
    });
  }

  /**
   * Says the gate's approved action starts now. Retried: the service answers the same lease `first: true`
   * again, and any later lease `first: false`.
   */
  markGateRan(lease: Lease, gateId: string): Promise<GateRan> {
    return this.http.call(markGateRan, {
      token: this.token,
      params: { lease_id: lease.lease_id, gate_id: gateId },
      body: { fencing_token: lease.fencing_token },
      attempts: 3,
    });
  }

  /** The fleet's memories matching a search, newest first (a fenced read, retried). */
  searchMemories(lease: Lease, search: MemorySearch, signal?: AbortSignal): Promise<{ items: Memory[] }> {
    const query: Record<string, string | number> = { limit: search.limit ?? 5 };
    if (search.query !== undefined) query.query = search.query;
    if (search.category !== undefined) query.category = search.category;
    return this.http.call(searchLeaseMemories, {
      token: this.token,
      params: { lease_id: lease.lease_id },
      query,
      headers: { "fleet-fencing-token": String(lease.fencing_token) },
      signal,
      attempts: 3,
    });
  }

  /** The fleet's recent conversation before the leased event, bounded in tokens (a fenced read, retried). */
  context(lease: Lease, signal?: AbortSignal): Promise<LeaseContext> {
    return this.http.call(leaseContext, {
      token: this.token,
      params: { lease_id: lease.lease_id },
      headers: { "fleet-fencing-token": String(lease.fencing_token) },
      signal,
      attempts: 3,
    });
  }

  /** Long-polls the gate's answer for up to `waitMs` (the service caps one wait at 30 s). */
  waitGate(lease: Lease, gateId: string, waitMs: number, signal?: AbortSignal): Promise<RunnerGate> {
    return this.http.call(waitGate, {
      token: this.token,
      params: { lease_id: lease.lease_id, gate_id: gateId },
      query: { wait_ms: waitMs },
      signal,
      attempts: 3,
      timeoutMs: waitMs + 15_000,
    });
  }

  /**
   * The model gateway's base URL for the lease, and a fetch that adds the runner token and the fencing
   * token (`Fleet-Fencing-Token`) to each call. Not retried here: the model client retries what it may.
   */
  model(lease: Lease, signal: AbortSignal): ModelAccess {
    const baseUrl = `${this.http.baseUrl}/v1/runners/me/leases/${lease.lease_id}/model`;
    const call: typeof fetch = (input, init) => {
      const headers = new Headers(init?.headers);
      headers.set("authorization", `Bearer ${this.token}`);
      headers.set("fleet-fencing-token", String(lease.fencing_token));
      const signals = init?.signal ? [signal, init.signal] : [signal];
      return fetch(input, { ...init, headers, signal: AbortSignal.any(signals) });
    };
    return { baseUrl, fetch: call };
  }

  /** Not idempotent (a repeat creates a second schedule): retried only when it cannot have landed. */
  createSchedule(lease: Lease, schedule: ScheduleRequest): Promise<ScheduleView> {
    return this.http.call(createFleetSchedule, {
      token: this.token,
      params: { lease_id: lease.lease_id },
      body: { ...schedule, fencing_token: lease.fencing_token },
      retry: "unsent",
    });
  }
}
