import { RunnerApi } from "./api.ts";
import { resolveCredentials } from "./enrol.ts";
import { ConfigError, loadConfig } from "./env.ts";
import { loadExecutor } from "./executors/index.ts";
import { ApiError, HttpClient } from "./http.ts";
import { createLogger, redact } from "./log.ts";
import { probeCapabilities } from "./probes.ts";
import { Runner } from "./runner.ts";

/**
 * Starts the runner: credentials (token, token file, or enrolment), the executor, then the loop until
 * SIGTERM/SIGINT (graceful: held leases get the grace period) or revocation. Exits 0 on both, so a
 * supervisor restarting on failure does not restart a revoked runner; 1 on bad configuration.
 */
async function main(): Promise<number> {
  const config = loadConfig();
  const log = createLogger(config.logLevel);
  const http = new HttpClient(config.apiUrl, log);
  const executor = await loadExecutor(config);
  const credentials = await resolveCredentials(config, http, log);
  const runner = new Runner({
    api: new RunnerApi(http, credentials.token),
    executor,
    log,
    probe: () => probeCapabilities({ root: "/", path: config.path }),
    waitMs: config.waitMs,
    heartbeatMs: config.heartbeatMs,
    shutdownGraceMs: config.shutdownGraceMs,
  });
  let signals = 0;
  const onSignal = (signal: NodeJS.Signals) => {
    signals++;
    // A second signal while leases are held means "now": they expire unreported and are reclaimed. (One
    // Ctrl-C often delivers two, SIGINT from the terminal and SIGTERM from a supervisor: idle, no matter.)
    if (signals > 1) {
      if (runner.leasesHeld === 0) return;
      log.warn("second signal: exiting now; held leases expire and are reclaimed", {
        signal,
        held: runner.leasesHeld,
      });
      process.exit(1);
    }
    log.info("signal received", { signal });
    runner.shutdown();
  };
  process.on("SIGTERM", onSignal);
  process.on("SIGINT", onSignal);
  log.info("runner starting", {
    api_url: config.apiUrl,
    runner_id: credentials.runnerId ?? null,
    credentials: credentials.source,
    executor: executor.name,
  });
  const reason = await runner.run();
  log.info("runner stopped", { reason });
  return 0;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    if (error instanceof ConfigError) console.error(`fleet-runner: ${error.message}`);
    else if (error instanceof ApiError)
      console.error(`fleet-runner: the service refused: ${redact(error.message)}`);
    else
      console.error("fleet-runner: failed:", redact(error instanceof Error ? error.message : String(error)));
    process.exitCode = 1;
  },
);
