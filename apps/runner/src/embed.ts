import { type CapabilityReport, RunnerApi } from "./api.ts";
import type { Executor } from "./executor.ts";
import { HttpClient } from "./http.ts";
import { createLogger, type LogLevel } from "./log.ts";
import { Runner, type StopReason } from "./runner.ts";

export interface EmbeddedRunnerOptions {
  apiUrl: string;
  /** A runner token the caller enrolled (`POST /v1/runners`). */
  token: string;
  executor: Executor;
  /** What the heartbeats report, instead of probing this host. */
  capabilities: CapabilityReport;
  /** Where the JSON log lines go (default: dropped) and from which level. */
  log?: { level: LogLevel; write: (line: string) => void };
  waitMs?: number;
  heartbeatMs?: number;
}

export interface EmbeddedRunner {
  /** Graceful stop (no new leases; held ones end or are given up after 5 s); resolves once it stopped. */
  stop(): Promise<StopReason>;
}

/**
 * The runner's loop inside another process: the same heartbeats, leases, executors, live frames and reports
 * as `fleet-runner`, with a token the caller enrolled and the capability report it is given. For browser
 * tests of the whole system: the suite's service is not in dev mode (so it refuses `dev_none`) and the
 * machines it runs on need not have what a `landlock_full` policy asks, which this runner does not apply
 * anyway (it sandboxes nothing, README "The capability report").
 */
export function startEmbeddedRunner(options: EmbeddedRunnerOptions): EmbeddedRunner {
  const log = options.log
    ? createLogger(options.log.level, options.log.write)
    : createLogger("error", () => {});
  const runner = new Runner({
    api: new RunnerApi(new HttpClient(options.apiUrl, log), options.token),
    executor: options.executor,
    log,
    probe: async () => options.capabilities,
    waitMs: options.waitMs ?? 10_000,
    heartbeatMs: options.heartbeatMs ?? 10_000,
    shutdownGraceMs: 5_000,
  });
  const stopped = runner.run();
  return {
    stop: () => {
      runner.shutdown();
      return stopped;
    },
  };
}
