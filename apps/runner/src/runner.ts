import type { Lease } from "@fleet/contracts";
import { type CapabilityReport, type HeartbeatAnswer, isUnauthorized, type RunnerApi } from "./api.ts";
import { backoffDelay, sleep } from "./backoff.ts";
import type { Executor } from "./executor.ts";
import { ApiError } from "./http.ts";
import { type LeaseApi, type LeaseEnd, runLease } from "./lease-worker.ts";
import type { Logger } from "./log.ts";

/** Why the runner stopped: asked to (SIGTERM), or its token was revoked or refused. */
export type StopReason = "shutdown" | "revoked";

export type LoopApi = LeaseApi & Pick<RunnerApi, "heartbeat" | "acquire">;

export interface RunnerOptions {
  api: LoopApi;
  executor: Executor;
  log: Logger;
  /** The host's capabilities, re-read every `probeEveryMs`. */
  probe: () => Promise<CapabilityReport>;
  waitMs: number;
  heartbeatMs: number;
  shutdownGraceMs: number;
  probeEveryMs?: number;
}

/**
 * The runner's loop. Heartbeats report the host's capabilities and bring back the operator's word (status,
 * policy, degraded verdict); one long-polling acquire at a time fills up to `worker_count` lease slots,
 * and each lease is worked by `runLease`. Leasing pauses while the runner is degraded or not `active`
 * (cordoned, draining, drained), and stops for good on revocation or shutdown.
 */
export class Runner {
  private state: HeartbeatAnswer | null = null;
  private readonly held = new Map<string, Promise<LeaseEnd>>();
  private readonly stopping = new AbortController();
  private readonly giveUp = new AbortController();
  private stopReason: StopReason = "shutdown";
  private graceTimer: NodeJS.Timeout | undefined;
  private changed = new AbortController();
  private report: CapabilityReport | null = null;
  private probedAt = 0;

  constructor(private readonly options: RunnerOptions) {}

  /** Runs until shutdown or revocation, then lets held leases finish (or gives them up) and resolves. */
  async run(): Promise<StopReason> {
    await this.beat();
    await Promise.all([this.heartbeats(), this.leasing()]);
    await Promise.allSettled(this.held.values());
    clearTimeout(this.graceTimer);
    return this.stopReason;
  }

  /** Graceful stop: no new leases, no more heartbeats; held leases get the grace period to finish. */
  shutdown(): void {
    this.stop("shutdown");
  }

  /** Leases being worked now. */
  get leasesHeld(): number {
    return this.held.size;
  }

  private stop(reason: StopReason): void {
    if (this.stopping.signal.aborted) return;
    this.stopReason = reason;
    const { log, shutdownGraceMs } = this.options;
    if (reason === "revoked") {
      log.error("the runner token was refused (revoked or deleted); stopping");
      this.giveUp.abort();
    } else {
      log.info("stopping: no new leases", { held: this.held.size, grace_ms: shutdownGraceMs });
      this.graceTimer = setTimeout(() => this.giveUp.abort(), shutdownGraceMs);
    }
    this.stopping.abort();
    this.changed.abort();
  }

  private canLease(): boolean {
    const state = this.state;
    return state !== null && !state.degraded && state.status === "active" && !this.stopping.signal.aborted;
  }

  private concurrency(): number {
    return this.state?.assigned_policy?.worker_count ?? 1;
  }

  private async capabilities(): Promise<CapabilityReport> {
    const every = this.options.probeEveryMs ?? 60_000;
    if (this.report === null || Date.now() - this.probedAt >= every) {
      this.report = await this.options.probe();
      this.probedAt = Date.now();
    }
    return this.report;
  }

  private async beat(): Promise<void> {
    const { api, log } = this.options;
    try {
      this.apply(await api.heartbeat(await this.capabilities()));
    } catch (error) {
      if (isUnauthorized(error)) this.stop("revoked");
      else log.warn("heartbeat failed", { error: error instanceof Error ? error.message : String(error) });
    }
  }

  private apply(answer: HeartbeatAnswer): void {
    const before = this.state;
    this.state = answer;
    const { log } = this.options;
    if (
      before === null ||
      before.status !== answer.status ||
      before.degraded !== answer.degraded ||
      before.degraded_reason !== answer.degraded_reason ||
      before.assigned_policy?.worker_count !== answer.assigned_policy?.worker_count
    ) {
      const fields = {
        status: answer.status,
        degraded: answer.degraded,
        degraded_reason: answer.degraded_reason,
        sandbox_tier: answer.assigned_policy?.sandbox_tier ?? null,
        worker_count: this.concurrency(),
      };
      if (answer.degraded)
        log.warn("degraded: no work is leased until a heartbeat satisfies the policy", fields);
      else log.info(this.canLease() ? "leasing" : "not leasing", fields);
    }
    if (answer.status === "revoked") this.stop("revoked");
    this.changed.abort();
    this.changed = new AbortController();
  }

  private async heartbeats(): Promise<void> {
    const signal = this.stopping.signal;
    while (!signal.aborted) {
      await sleep(this.options.heartbeatMs, signal);
      if (!signal.aborted) await this.beat();
    }
  }

  private async leasing(): Promise<void> {
    const { api, log, waitMs, heartbeatMs } = this.options;
    const signal = this.stopping.signal;
    let failures = 0;
    while (!signal.aborted) {
      if (!this.canLease()) {
        await sleep(heartbeatMs, this.changed.signal);
        continue;
      }
      if (this.held.size >= this.concurrency()) {
        await Promise.race([...this.held.values(), sleep(heartbeatMs, this.changed.signal)]);
        continue;
      }
      try {
        const answer = await api.acquire(waitMs, signal);
        failures = 0;
        if (answer.lease !== null) this.start(answer.lease);
        else await sleep(Math.min(answer.retry_after_ms, 30_000), signal);
      } catch (error) {
        if (signal.aborted) break;
        if (isUnauthorized(error)) {
          this.stop("revoked");
          break;
        }
        if (error instanceof ApiError && error.code === "UZ-EXEC-017" && this.state !== null) {
          // Degraded since the last heartbeat: wait for the next one to say it is over.
          this.state = { ...this.state, degraded: true, degraded_reason: String(error.problem.detail ?? "") };
          log.warn("acquire refused: the runner is degraded", { detail: error.problem.detail });
          continue;
        }
        log.warn("acquire failed", { error: error instanceof Error ? error.message : String(error) });
        await sleep(backoffDelay(failures++), signal);
      }
    }
  }

  private start(lease: Lease): void {
    const { api, executor, log } = this.options;
    const worked = runLease(lease, { api, executor, log }, this.giveUp.signal).finally(() =>
      this.held.delete(lease.lease_id),
    );
    this.held.set(lease.lease_id, worked);
  }
}
