// `pnpm start`: build what is missing, then run the API and the console together on the configured
// database (embedded PGlite by default), and print both URLs and a one-time sign-in link for the owner.
// In dev mode (the default here) it also starts the local demo service (a status board and the scripted
// demo model, apps/runner/dev) and one local runner with the auto executor (echo for Echo, agent for the
// demo agent fleet), so work flows with no provider configured.
// Their logs go to files it names (.data/logs/), so the link and the key stay on screen; with LOG_LEVEL
// set they stream to the terminal instead, at that level.
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { onNode24 } from "./node24.mjs";
import { buildConsole, duration, servePlaceholder } from "./start-console.mjs";
import { LogFiles } from "./start-logs.mjs";
import { Processes } from "./start-processes.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
// On an older Node, this runs itself again on Node 24, and so does everything it starts.
await onNode24(root);
const apiPort = process.env.PORT ?? "8080";
const consolePort = process.env.CONSOLE_PORT ?? "3000";
const devMode = (process.env.FLEET_DEV_MODE ?? "true") === "true";
/** The local demo service's port (dev mode): the status board and the scripted demo model. */
const demoPort = process.env.FLEET_DEMO_PORT ?? "8091";
const env = {
  ...process.env,
  PORT: apiPort,
  CONSOLE_PORT: consolePort,
  API_URL: process.env.API_URL ?? `http://127.0.0.1:${apiPort}`,
  FLEET_DEV_MODE: process.env.FLEET_DEV_MODE ?? "true",
  // With no provider configured, the gateway's calls go to the scripted demo model (dev mode only).
  ...(devMode
    ? {
        FLEET_DEMO_PORT: demoPort,
        FLEET_DEV_SCRIPTED_MODEL_URL:
          process.env.FLEET_DEV_SCRIPTED_MODEL_URL ?? `http://127.0.0.1:${demoPort}/model/v1`,
      }
    : {}),
  TURBO_TELEMETRY_DISABLED: "1",
  NEXT_TELEMETRY_DISABLED: "1",
};
/** Logs in files unless LOG_LEVEL asks for them in the terminal. */
const logs = process.env.LOG_LEVEL === undefined ? new LogFiles(root, process.env.FLEET_LOG_DIR) : null;
const say = (line) => console.log(line);
// A terminal closed under it (or a pipe whose reader left) must not end it before it stopped its children.
process.stdout.on("error", () => {});
process.stderr.on("error", () => {});
/** The local runner's grace for the leases it holds when asked to stop (its FLEET_RUNNER_SHUTDOWN_GRACE_MS). */
const runnerGraceMs = Number(process.env.FLEET_RUNNER_SHUTDOWN_GRACE_MS ?? 20_000);
const processes = new Processes({ cwd: root, runnerGraceMs, serverGraceMs: 10_000, say });
// Named in the summary before their processes start (the console's once its build is done).
for (const name of ["api", "build", "console", ...(devMode ? ["demo"] : [])]) logs?.open(name);

function run(name, command, args, options = {}) {
  return processes.run(name, command, args, {
    env: options.env ?? env,
    stdio: logs ? ["ignore", logs.open(name), logs.open(name)] : "inherit",
    // Ctrl-C reaches this process alone (each child has its own process group): an exit seen before a
    // stop began is one nobody asked for.
    onExit: (code, signal) => {
      const how = signal === null ? `exited with ${code}` : `was ended by ${signal}`;
      const cause = logs ? `; the end of ${logs.shown(name)}:\n${logs.tail(name)}` : "";
      if (options.optional) console.error(`start: ${name} ${how}; the rest keeps running${cause}`);
      else {
        console.error(`start: ${name} ${how}; stopping${cause}`);
        void processes.stopAll(code || 1);
      }
    },
  });
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
 * `fleetctl <args>`, its output collected: not spawnSync, which would stop this process's event loop for
 * its seconds, and with it the console's building page and the progress lines.
 */
function fleetctl(args) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ["--import", "tsx", "apps/api/src/cli/fleetctl.ts", ...args], {
      cwd: root,
      env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => {
      stdout += chunk;
    });
    child.stderr.on("data", (chunk) => {
      stderr += chunk;
    });
    child.on("error", (error) => resolve({ status: 1, stdout, stderr: error.message }));
    child.on("close", (status) => resolve({ status, stdout, stderr }));
  });
}

/**
 * One local runner (dev_none tier, auto executor: echo for a fleet without tools, agent for one with; two
 * workers, so a gate waiting on a person does not hold Echo's messages back) that enrols itself with an operator token on its first
 * start and keeps its runner token in .data/runner (mode 600), one file per database. Answers whether it
 * came online. Into its log file it logs at info; into the terminal (LOG_LEVEL set) at LOG_LEVEL where the
 * runner has that level, else warnings only, so the start's output stays short.
 */
async function startRunner(apiUrl, operatorToken) {
  if (env.FLEET_DEV_MODE !== "true") return "not started (FLEET_DEV_MODE is not true)";
  const operator = await operatorToken;
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
      FLEET_RUNNER_EXECUTOR: env.FLEET_RUNNER_EXECUTOR ?? "auto",
      FLEET_RUNNER_WORKER_COUNT: env.FLEET_RUNNER_WORKER_COUNT ?? "2",
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
        return `${runnerHost} is working (dev_none, auto executor: echo for Echo, agent for fleets with tools)`;
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
const consoleUrl = `http://localhost:${consolePort}`;
let summaryPrinted = false;
let consoleBuilt = false;
let consoleReady = false;

/**
 * The console: built in the background (a cache hit restores it in seconds) while a page on its port says
 * so, then served by Next itself, not through `pnpm exec`: pnpm left on SIGTERM without its child, and the
 * console's server then outlived the stop.
 */
async function startConsole() {
  const placeholder = await servePlaceholder(consolePort);
  say(
    "start: building the console in the background (minutes the first time, cached after); the API starts meanwhile…",
  );
  const built = await buildConsole(processes, {
    env: buildEnv,
    stdio: logs ? ["ignore", logs.open("build"), logs.open("build")] : "inherit",
    say,
    quiet: () => summaryPrinted,
  });
  consoleBuilt = built.code === 0;
  await placeholder.close();
  if (processes.stopping) return;
  if (built.code !== 0) {
    const cause = logs ? `; the end of ${logs.shown("build")}:\n${logs.tail("build")}` : "";
    console.error(`start: building the console failed (exit ${built.code}); stopping${cause}`);
    await processes.stopAll(built.code);
    return;
  }
  const consoleDir = join(root, "apps", "console");
  const next = createRequire(join(consoleDir, "package.json")).resolve("next/dist/bin/next");
  run("console", process.execPath, [next, "start", consoleDir, "-p", consolePort]);
  await waitForHealth(`${consoleUrl}/`, 60);
  consoleReady = true;
  // The summary went out while it was building: say when the wait is over.
  if (summaryPrinted) say(`start: the console is ready at ${consoleUrl} (built in ${duration(built.ms)}).`);
}

function summary(result, runner) {
  const lines = [
    "",
    "Fleet Control Plane is running.",
    `  API       ${apiUrl}   (reference ${apiUrl}/docs)`,
    consoleReady
      ? `  Console   ${consoleUrl}`
      : `  Console   ${consoleUrl}   (building: its page opens the console when it is ready)`,
    `  Runner    ${runner}`,
    logs
      ? `  Logs      ${logs.summary()}   (LOG_LEVEL=info pnpm start shows them here)`
      : `  Logs      here, at LOG_LEVEL=${env.LOG_LEVEL}`,
  ];
  if (result.workspace) lines.push(`  Workspace ${result.workspace.id}   (${result.workspace.name})`);
  if (result.created) {
    lines.push(
      "",
      `Created tenant "Default" with owner ${result.owner}. Its first API key (shown once):`,
      `  ${result.created.api_key}`,
    );
  }
  if (result.workspace && result.demo_fleet) {
    const key = result.created ? "the key above" : "an API key (the console's API keys page makes one)";
    lines.push(
      "",
      `A program sends the demo fleet ${result.demo_fleet.name} a message so (${key} in FLEET_API_KEY):`,
      `  curl -X POST ${apiUrl}/v1/workspaces/${result.workspace.id}/fleets/${result.demo_fleet.id}/messages -H "Authorization: Bearer $FLEET_API_KEY" -H "Content-Type: application/json" -d '{"message":"Hello"}'`,
    );
  }
  if (result.workspace && result.agent_demo_fleet) {
    lines.push(
      "",
      `Watch an agent: in the console open the fleet ${result.agent_demo_fleet.name} and send it a message ("How is the shop doing?").`,
      `  It reads the local status board (http://127.0.0.1:${demoPort}/status), then asks to remember what it saw: approve it in Approvals.`,
      "  With no provider set, its model is the SCRIPTED DEMO MODEL, not a real model: set one on the console's Models page (README, Real models).",
    );
  }
  if (result.url) {
    lines.push("", `Sign in as ${result.owner} (one-time link, valid 10 minutes):`, `  ${result.url}`);
    if (env.FLEET_DEV_MODE === "true")
      lines.push("  In dev mode the owner's sign-in also opens the operator pages (Runners).");
  }
  const email = result.owner ?? "<address>";
  lines.push("", `A new sign-in link: pnpm fleetctl login-link --email ${email}. Stop with Ctrl-C.`, "");
  return lines.join("\n");
}

const apiUrl = `http://localhost:${apiPort}`;
// A start that fails part-way stops what it already started: nothing is left running behind an error.
const fail = (error) => {
  if (processes.stopping) return;
  const where = logs ? ` (logs: ${logs.summary()})` : "";
  console.error(`start: ${error instanceof Error ? error.message : error}; stopping${where}`);
  void processes.stopAll(1);
};
try {
  const consoleStarted = startConsole();
  consoleStarted.catch(fail);
  // Before the API, so the scripted demo model answers by the time a run calls it; optional: a taken port
  // leaves the rest running (the demo agent's runs then fail and say why).
  if (devMode)
    run("demo", process.execPath, ["--import", "tsx", "apps/runner/dev/main.ts"], { optional: true });
  run("api", process.execPath, ["apps/api/scripts/start.mjs"]);
  // /readyz, not /healthz: the API listens (and /healthz answers) before its database is open, and
  // fleetctl below talks to the running server's control socket, which opens with the database.
  await waitForHealth(`${apiUrl}/readyz`, 120);

  // Side by side: each fleetctl is seconds of start-up (more on a busy machine), and neither needs the other.
  const operatorToken =
    env.FLEET_DEV_MODE === "true" ? fleetctl(["operator", "--scopes", "runner:write", "--json"]) : null;
  const firstRun = await fleetctl(["first-run", "--json"]);
  if (firstRun.status !== 0) {
    console.error(firstRun.stderr.trim());
    void processes.stopAll(1);
  } else {
    const runner = await startRunner(apiUrl, operatorToken);
    // Built already (a cached build takes seconds): the console is moments away; the summary waits for it.
    if (consoleBuilt) await consoleStarted;
    if (!processes.stopping) {
      console.log(summary(JSON.parse(firstRun.stdout), runner));
      summaryPrinted = true;
    }
  }
} catch (error) {
  fail(error);
}
