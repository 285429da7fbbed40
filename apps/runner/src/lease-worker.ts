import type { Lease } from "@fleet/contracts";
import { isLeaseLost, isOverBudget, type ReportFields, type RunnerApi } from "./api.ts";
import { sleep } from "./backoff.ts";
import { type Executor, LeaseLostError, type LeaseTools } from "./executor.ts";
import { ApiError } from "./http.ts";
import type { Logger } from "./log.ts";
import { fencedModel } from "./model-access.ts";

/** How a lease ended for this runner. `unreported`: the report never got through; the lease will expire. */
export type LeaseEnd = "reported" | "lost" | "given_up" | "unreported";

export type LeaseApi = Pick<
  RunnerApi,
  | "renew"
  | "release"
  | "report"
  | "activity"
  | "writeMemory"
  | "createSchedule"
  | "openGate"
  | "waitGate"
  | "markGateRan"
  | "searchMemories"
  | "context"
  | "credentials"
  | "model"
>;

/** The service's lease TTL (decisions: 30 s); a shorter one is read off the lease itself. */
const DEFAULT_TTL_MS = 30_000;

/**
 * How long the lease lives, from its `expires_at` and when it arrived. The service's clock is not ours:
 * an answer outside (0, 30 s] means the clocks disagree, and the service's default is assumed.
 */
export function ttlEstimate(lease: Lease, receivedAt: number): number {
  const left = lease.expires_at - receivedAt;
  return left > 0 && left <= DEFAULT_TTL_MS ? left : DEFAULT_TTL_MS;
}

function describe(lease: Lease) {
  return {
    lease_id: lease.lease_id,
    fleet_id: lease.fleet_id,
    event_id: lease.event_id,
    fencing_token: lease.fencing_token,
    kind: lease.kind,
  };
}

function problemText(error: unknown): string {
  if (error instanceof ApiError)
    return `${error.code ?? error.status}: ${String(error.problem.detail ?? "")}`;
  return error instanceof Error ? error.message : String(error);
}

/**
 * Works one lease to its end: renews it every third of its TTL, runs the executor with tools bound to the
 * lease, and reports. A refusal meaning the lease was lost (409 UZ-RUN-005) stops everything at once and
 * reports nothing: the fleet's newer holder owns the work. `giveUp` (shutdown past its grace) gives the
 * lease up unreported: released to the service, so another runner reclaims it at once (or, if the release
 * does not land, when it expires). A run the service says is over its budget (409 UZ-BUDGET-001 on a renew
 * or a fenced write) is stopped the same way, but reported: fleet_error, `budget_exceeded`.
 */
export async function runLease(
  lease: Lease,
  deps: { api: LeaseApi; executor: Executor; log: Logger },
  giveUp: AbortSignal,
): Promise<LeaseEnd> {
  const { api, executor, log } = deps;
  const started = Date.now();
  const interval = Math.max(100, Math.floor(ttlEstimate(lease, started) / 3));
  const held = new AbortController();
  /** Aborted when the service says the run is over its budget: the executor stops, the lease is reported. */
  const overBudget = new AbortController();
  const running = AbortSignal.any([held.signal, overBudget.signal]);
  const finished = new AbortController();
  let end: LeaseEnd | undefined;
  const drop = (why: "lost" | "given_up") => {
    if (held.signal.aborted || finished.signal.aborted) return;
    end = why;
    if (why === "lost") log.warn("lease lost to a newer holder; dropping it", describe(lease));
    else log.warn("giving the lease up unreported; it is released for another runner", describe(lease));
    held.abort(why);
  };
  const onGiveUp = () => drop("given_up");
  if (giveUp.aborted) onGiveUp();
  giveUp.addEventListener("abort", onGiveUp, { once: true });
  const stopRenewing = AbortSignal.any([held.signal, finished.signal, overBudget.signal]);
  const stopForBudget = (error: unknown) => {
    if (overBudget.signal.aborted) return;
    log.warn("the run is over its budget; stopping it", { ...describe(lease), error: problemText(error) });
    overBudget.abort("over_budget");
  };

  const renewing = (async () => {
    for (;;) {
      await sleep(interval, stopRenewing);
      if (stopRenewing.aborted) return;
      try {
        await api.renew(lease, stopRenewing);
      } catch (error) {
        if (stopRenewing.aborted) return;
        if (isLeaseLost(error)) return drop("lost");
        if (isOverBudget(error)) return stopForBudget(error);
        log.warn("renew failed; trying again", { ...describe(lease), error: problemText(error) });
      }
    }
  })();

  /** Runs a fenced write; a lost-lease refusal drops the lease and surfaces as LeaseLostError. */
  const fenced = async <T>(write: () => Promise<T>): Promise<T> => {
    if (held.signal.aborted) throw new LeaseLostError(lease.lease_id);
    try {
      return await write();
    } catch (error) {
      if (isLeaseLost(error) || held.signal.aborted) {
        drop("lost");
        throw new LeaseLostError(lease.lease_id);
      }
      if (isOverBudget(error)) stopForBudget(error);
      throw error;
    }
  };
  /** This lease's secret values: in memory, for this run only, cleared when the lease ends. */
  const credentials = new Map<string, Record<string, unknown>>();
  const tools: LeaseTools = {
    signal: running,
    credentials,
    model: fencedModel(api.model(lease, running), {
      leaseId: lease.lease_id,
      held: held.signal,
      lost: () => drop("lost"),
      overBudget: stopForBudget,
    }),
    async publish(frame) {
      try {
        await fenced(() => api.activity(lease, [frame]));
      } catch (error) {
        if (!(error instanceof LeaseLostError))
          log.debug("activity frame dropped", { error: problemText(error) });
      }
    },
    writeMemory: (key, memory) => fenced(() => api.writeMemory(lease, key, memory)),
    createSchedule: (schedule) => fenced(() => api.createSchedule(lease, schedule)),
    openGate: (gate) => fenced(() => api.openGate(lease, gate)),
    // Not fenced by the service (reading an answer changes nothing), but bound to the lease: the wait
    // ends when the lease is lost, while the renew loop above keeps the lease alive during it.
    waitGate: (gateId, waitMs) => fenced(() => api.waitGate(lease, gateId, waitMs, running)),
    markGateRan: (gateId) => fenced(() => api.markGateRan(lease, gateId)),
    searchMemories: (search) => fenced(() => api.searchMemories(lease, search, running)),
    context: async () => {
      try {
        return await fenced(() => api.context(lease, running));
      } catch (error) {
        // A service that predates the route: no context, as before.
        if (error instanceof ApiError && error.status === 404 && error.code === "UZ-REQ-004")
          return { turns: [], tokens: 0, max_tokens: 0 };
        throw error;
      }
    },
  };

  try {
    log.info("lease acquired", describe(lease));
    const refused = await fetchCredentials(lease, credentials, fenced, deps);
    const result = refused ?? (await execute(executor, lease, tools, running));
    if (held.signal.aborted) return end ?? "lost";
    if (overBudget.signal.aborted) {
      const stopped: ReportFields = {
        outcome: "fleet_error",
        failure_label: "budget_exceeded",
        failure_detail: "The service stopped the run: it reached its budget.",
        wall_ms: Date.now() - started,
      };
      return await report(api, lease, stopped, held.signal, log, () => end);
    }
    if (result === null) return end ?? "lost";
    const fields = { ...result, wall_ms: result.wall_ms ?? Date.now() - started };
    return await report(api, lease, fields, held.signal, log, () => end);
  } catch (error) {
    log.error("lease failed", { ...describe(lease), error: problemText(error) });
    return end ?? "unreported";
  } finally {
    credentials.clear();
    finished.abort();
    giveUp.removeEventListener("abort", onGiveUp);
    await renewing;
    if (end === "given_up") {
      await api.release(lease, AbortSignal.timeout(2_000)).catch((error: unknown) => {
        log.warn("release failed; the lease will expire instead", {
          ...describe(lease),
          error: problemText(error),
        });
      });
    }
  }
}

/**
 * Fills `into` with the lease's credentials when its fleet declares any (names only are logged). A refusal
 * other than a lost lease (a degraded host, 409 UZ-EXEC-017) is the run's fleet_error: it cannot run
 * without them. A lost lease propagates as LeaseLostError.
 */
async function fetchCredentials(
  lease: Lease,
  into: Map<string, Record<string, unknown>>,
  fenced: <T>(write: () => Promise<T>) => Promise<T>,
  deps: { api: LeaseApi; log: Logger },
): Promise<ReportFields | null> {
  if (lease.fleet.credentials.length === 0) return null;
  try {
    const answer = await fenced(() => deps.api.credentials(lease));
    for (const item of answer.credentials) if (item.data !== undefined) into.set(item.name, item.data);
    const missing = answer.credentials.filter((item) => item.missing).map((item) => item.name);
    deps.log.info("credentials received", { ...describe(lease), names: [...into.keys()], missing });
    return null;
  } catch (error) {
    if (error instanceof LeaseLostError) throw error;
    return {
      outcome: "fleet_error",
      failure_label: "credentials_unavailable",
      failure_detail: problemText(error).slice(0, 2000),
    };
  }
}

/** The executor's answer, a fleet_error for its failure, or null once the lease is gone. */
async function execute(
  executor: Executor,
  lease: Lease,
  tools: LeaseTools,
  held: AbortSignal,
): Promise<ReportFields | null> {
  const gone = new Promise<null>((resolve) => {
    if (held.aborted) resolve(null);
    held.addEventListener("abort", () => resolve(null), { once: true });
  });
  const running = executor.run(lease, tools).then(
    (result) => result,
    (error: unknown): ReportFields | null =>
      error instanceof LeaseLostError || held.aborted
        ? null
        : {
            outcome: "fleet_error",
            failure_label: "executor_error",
            failure_detail: problemText(error).slice(0, 2000),
          },
  );
  return Promise.race([running, gone]);
}

async function report(
  api: LeaseApi,
  lease: Lease,
  fields: ReportFields,
  held: AbortSignal,
  log: Logger,
  endedAs: () => LeaseEnd | undefined,
): Promise<LeaseEnd> {
  try {
    await api.report(lease, fields, held);
    log.info("reported", { ...describe(lease), outcome: fields.outcome, wall_ms: fields.wall_ms });
    return "reported";
  } catch (error) {
    if (held.aborted) return endedAs() ?? "given_up";
    if (isLeaseLost(error)) {
      // Also the answer to a repeat of a report that did land (the lease has ended): either way, done.
      log.warn("report refused: the lease had ended", {
        ...describe(lease),
        current_state: error instanceof ApiError ? error.problem.current_state : undefined,
      });
      return "lost";
    }
    const refused = error instanceof ApiError && (error.status === 400 || error.status === 413);
    if (refused && fields.failure_label !== "report_refused") {
      // An answer the service cannot store must not leave the event to be leased, and refused, forever.
      log.error("report refused; reporting fleet_error instead", {
        ...describe(lease),
        error: problemText(error),
      });
      const fallback: ReportFields = {
        outcome: "fleet_error",
        failure_label: "report_refused",
        failure_detail: problemText(error).slice(0, 2000),
        wall_ms: fields.wall_ms,
      };
      return report(api, lease, fallback, held, log, endedAs);
    }
    log.error("report failed; the lease will expire and be reclaimed", {
      ...describe(lease),
      error: problemText(error),
    });
    return "unreported";
  }
}
