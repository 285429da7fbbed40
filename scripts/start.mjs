// `pnpm start`: build what is missing, then run the API and the console together on the configured
// database (embedded PGlite by default), and print both URLs and a one-time sign-in link for the owner.
// In dev mode (the default here) it also starts one local runner with the echo executor, so work flows.
// Their logs go to files it names (.data/logs/), so the link and the key stay on screen; with LOG_LEVEL
// set they stream to the terminal instead, at that level.
import { spawn, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { onNode24 } from "./node24.mjs";
import { LogFiles } from "./start-logs.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
// On an older Node, this runs itself again on Node 24, and so does everything it starts.
await onNode24(root);
const apiPort = process.env.PORT ?? "8080";
const consolePort = process.env.CONSOLE_PORT ?? "3000";
const env = {
  ...process.env,
  PORT: apiPort,
  CONSOLE_PORT: consolePort,
  API_URL: process.env.API_URL ?? `http://127.0.0.1:${apiPort}`,
  FLEET_DEV_MODE: process.env.FLEET_DEV_MODE ?? "true",
  TURBO_TELEMETRY_DISABLED: "1",
  NEXT_TELEMETRY_DISABLED: "1",
};
/** Logs in files unless LOG_LEVEL asks for them in the terminal. */
const logs = process.env.LOG_LEVEL === undefined ? new LogFiles(root, process.env.FLEET_LOG_DIR) : null;
const children = [];
let stopping = false;
/** The local runner gives held leases 20 s to finish (reporting or releasing them to the API) first. */
const RUNNER_GRACE_MS = 25_000;
const SERVER_GRACE_MS = 10_000;

const isRunning = (child) => child.exitCode === null && child.signalCode === null;

/** SIGTERM, then SIGKILL after `graceMs`; resolves once each has exited. */
function stopChildren(list, graceMs) {
  const running = list.filter(isRunning);
  for (const child of running) child.kill("SIGTERM");
  const killer = setTimeout(() => {
    for (const child of running) if (isRunning(child)) child.kill("SIGKILL");
  }, graceMs);
  return Promise.all(
    running.map(
      (child) => new Promise((resolve) => (isRunning(child) ? child.once("exit", resolve) : resolve())),
    ),
  ).finally(() => clearTimeout(killer));
}

/**
 * Stops everything and exits once all have: the runner first, while the API still answers the reports
 * and releases of the leases it finishes in its grace, then the API and the console.
 */
function stopAll(code) {
  if (stopping) return;
  stopping = true;
  const runners = children.filter((child) => child.fleetRole === "runner");
  stopChildren(runners, RUNNER_GRACE_MS)
    .then(() => stopChildren(children, SERVER_GRACE_MS))
    .then(() => process.exit(code));
}
function onSignal() {
  if (!stopping)
    console.log("start: stopping (the runner first finishes or gives back its leases, up to 20 s)…");
  stopAll(0);
}
process.on("SIGINT", onSignal);
process.on("SIGTERM", onSignal);

function run(name, command, args, options = {}) {
  // Nothing starts once a stop began: it would outlive the stop.
  if (stopping) throw new Error(`not starting ${name}: stopping`);
  const child = spawn(command, args, {
    cwd: root,
    env: options.env ?? env,
    stdio: logs ? ["ignore", logs.open(name), logs.open(name)] : "inherit",
  });
  child.fleetRole = name;
  children.push(child);
  child.on("exit", (code, signal) => {
    if (stopping) return;
    // Ctrl+C reaches every child too, and a child's exit may be seen before this process's own SIGINT
    // handler: a moment later, an exit nobody asked for is one (killed by a signal or a clean exit alike).
    setTimeout(() => {
      if (stopping) return;
      const how = signal === null ? `exited with ${code}` : `was ended by ${signal}`;
      const cause = logs ? `; the end of ${logs.shown(name)}:\n${logs.tail(name)}` : "";
      if (options.optional) console.error(`start: ${name} ${how}; the rest keeps running${cause}`);
      else {
        console.error(`start: ${name} ${how}; stopping${cause}`);
        stopAll(code || 1);
      }
    }, 500);
  });
  return child;
}

async function waitForHealth(url, seconds) {
  const deadline = Date.now() + seconds * 1000;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${url} did not answer within ${seconds}s`);
}

const runnerHost = "local-dev";

/**
 * One local runner (dev_none tier, echo executor) that enrols itself with an operator token on its first
 * start and keeps its runner token in .data/runner (mode 600), one file per database. Answers whether it
 * came online. Into its log file it logs at info; into the terminal (LOG_LEVEL set) at LOG_LEVEL where the
 * runner has that level, else warnings only, so the start's output stays short.
 */
async function startRunner(apiUrl) {
  if (env.FLEET_DEV_MODE !== "true") return "not started (FLEET_DEV_MODE is not true)";
  const operator = spawnSync(
    process.execPath,
    ["--import", "tsx", "apps/api/src/cli/fleetctl.ts", "operator", "--scopes", "runner:write", "--json"],
    { cwd: root, env, encoding: "utf8" },
  );
  if (operator.status !== 0) return `not started (${operator.stderr.trim().split("\n")[0]})`;
  const { token } = JSON.parse(operator.stdout);
  const database = createHash("sha256")
    .update(env.DATABASE_URL ?? "default")
    .digest("hex")
    .slice(0, 12);
  run("runner", process.execPath, ["--import", "tsx", "apps/runner/src/main.ts"], {
    optional: true,
    env: {
      ...env,
      FLEET_API_URL: apiUrl,
      FLEET_OPERATOR_TOKEN: token,
      FLEET_RUNNER_HOST_ID: runnerHost,
      FLEET_RUNNER_TOKEN_FILE: join(root, ".data", "runner", `${runnerHost}-${database}.json`),
      FLEET_RUNNER_SANDBOX_TIER: "dev_none",
      FLEET_RUNNER_LOG_LEVEL: env.FLEET_RUNNER_LOG_LEVEL ?? runnerLogLevel(),
    },
  });
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    try {
      const page = await fetch(`${apiUrl}/v1/fleets/runners?limit=100`, {
        headers: { authorization: `Bearer ${token}` },
      }).then((response) => response.json());
      const runner = page.items?.find((item) => item.host_id === runnerHost && item.status === "active");
      if (runner && ["online", "busy"].includes(runner.liveness) && !runner.degraded) {
        return `${runnerHost} is working (dev_none, echo executor): messages to fleets are answered`;
      }
    } catch {
      // the API is busy starting the console's requests; ask again
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return `did not come online within 30 s (see ${logs ? logs.shown("runner") : "its warnings above"})`;
}

function runnerLogLevel() {
  if (logs) return "info";
  return ["error", "warn", "info", "debug"].includes(env.LOG_LEVEL) ? env.LOG_LEVEL : "warn";
}

// The build sees the environment `pnpm build` in this shell would, without the defaults set above: turbo
// hashes every variable of globalEnv into a task's key, so with them a first start after `pnpm build` (or
// any start on another port) rebuilt the console from scratch, though it reads them only when it runs.
const buildEnv = { ...process.env, TURBO_TELEMETRY_DISABLED: "1", NEXT_TELEMETRY_DISABLED: "1" };
console.log("start: building the console (cached after the first time)…");
const build = spawnSync(
  "pnpm",
  ["exec", "turbo", "run", "build", "--filter=@fleet/console", "--output-logs=errors-only"],
  {
    cwd: root,
    env: buildEnv,
    stdio: "inherit",
  },
);
if (build.status !== 0) process.exit(build.status ?? 1);

// A start that fails part-way stops what it already started: nothing is left running behind an error.
try {
  const apiUrl = `http://localhost:${apiPort}`;
  run("api", process.execPath, ["apps/api/scripts/start.mjs"]);
  // /readyz, not /healthz: the API listens (and /healthz answers) before its database is open, and
  // fleetctl below talks to the running server's control socket, which opens with the database.
  await waitForHealth(`${apiUrl}/readyz`, 60);

  const firstRun = spawnSync(
    process.execPath,
    ["--import", "tsx", "apps/api/src/cli/fleetctl.ts", "first-run", "--json"],
    {
      cwd: root,
      env,
      encoding: "utf8",
    },
  );
  if (firstRun.status !== 0) {
    console.error(firstRun.stderr.trim());
    stopAll(1);
  } else {
    // Next itself, not through `pnpm exec`: pnpm left on SIGTERM without its child, and the console's
    // server then outlived the stop (and the SIGKILL after the grace, which reached only pnpm).
    const consoleDir = join(root, "apps", "console");
    const next = createRequire(join(consoleDir, "package.json")).resolve("next/dist/bin/next");
    run("console", process.execPath, [next, "start", consoleDir, "-p", consolePort]);
    const runner = startRunner(apiUrl);
    await waitForHealth(`http://localhost:${consolePort}/`, 60);
    const result = JSON.parse(firstRun.stdout);
    const lines = [
      "",
      "Fleet Control Plane is running.",
      `  API       ${apiUrl}   (reference ${apiUrl}/docs)`,
      `  Console   http://localhost:${consolePort}`,
      `  Runner    ${await runner}`,
      logs
        ? `  Logs      ${logs.summary()}   (LOG_LEVEL=info pnpm start shows them here)`
        : `  Logs      here, at LOG_LEVEL=${env.LOG_LEVEL}`,
    ];
    if (result.created) {
      lines.push(
        "",
        `Created tenant "Default" with owner ${result.owner}. Its first API key (shown once):`,
        `  ${result.created.api_key}`,
      );
    }
    if (result.url) {
      lines.push("", `Sign in as ${result.owner} (one-time link, valid 10 minutes):`, `  ${result.url}`);
      if (env.FLEET_DEV_MODE === "true")
        lines.push("  In dev mode the owner's sign-in also opens the operator pages (Runners).");
    }
    const email = result.owner ?? "<address>";
    lines.push("", `A new sign-in link: pnpm fleetctl login-link --email ${email}. Stop with Ctrl-C.`, "");
    console.log(lines.join("\n"));
  }
} catch (error) {
  const where = logs ? ` (logs: ${logs.summary()})` : "";
  console.error(`start: ${error instanceof Error ? error.message : error}; stopping${where}`);
  stopAll(1);
}
