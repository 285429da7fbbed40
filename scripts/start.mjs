// `pnpm start`: build what is missing, then run the API and the console together on the configured
// database (embedded PGlite by default), and print both URLs and a one-time sign-in link for the owner.
import { spawn, spawnSync } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const apiPort = process.env.PORT ?? "8080";
const consolePort = process.env.CONSOLE_PORT ?? "3000";
const env = {
  ...process.env,
  PORT: apiPort,
  CONSOLE_PORT: consolePort,
  API_URL: process.env.API_URL ?? `http://127.0.0.1:${apiPort}`,
  TURBO_TELEMETRY_DISABLED: "1",
  NEXT_TELEMETRY_DISABLED: "1",
};
const children = [];

function stopAll(code) {
  for (const child of children) if (child.exitCode === null) child.kill("SIGTERM");
  setTimeout(() => process.exit(code), 1500).unref();
}
process.on("SIGINT", () => stopAll(0));
process.on("SIGTERM", () => stopAll(0));

function run(name, command, args, options = {}) {
  const child = spawn(command, args, { cwd: root, env, stdio: options.stdio ?? "inherit" });
  children.push(child);
  child.on("exit", (code, signal) => {
    if (signal === null && code !== 0) {
      console.error(`start: ${name} exited with ${code}; stopping`);
      stopAll(code ?? 1);
    }
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

console.log("start: building the console (cached after the first time)…");
const build = spawnSync(
  "pnpm",
  ["exec", "turbo", "run", "build", "--filter=@fleet/console", "--output-logs=errors-only"],
  {
    cwd: root,
    env,
    stdio: "inherit",
  },
);
if (build.status !== 0) process.exit(build.status ?? 1);

const apiUrl = `http://localhost:${apiPort}`;
run("api", process.execPath, ["--import", "tsx", "apps/api/src/main.ts"]);
await waitForHealth(`${apiUrl}/healthz`, 60);

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
  console.error(firstRun.stderr);
  stopAll(1);
} else {
  run("console", "pnpm", ["--filter", "@fleet/console", "exec", "next", "start", "-p", consolePort]);
  await waitForHealth(`http://localhost:${consolePort}/`, 60);
  const result = JSON.parse(firstRun.stdout);
  const lines = [
    "",
    "Fleet Control Plane is running.",
    `  API       ${apiUrl}   (reference ${apiUrl}/docs)`,
    `  Console   http://localhost:${consolePort}`,
  ];
  if (result.created) {
    lines.push(
      "",
      `Created tenant "Default" with owner ${result.owner}. Its first API key (shown once):`,
      `  ${result.created.api_key}`,
    );
  }
  if (result.url)
    lines.push("", `Sign in as ${result.owner} (one-time link, valid 10 minutes):`, `  ${result.url}`);
  lines.push("", "More sign-in links: pnpm fleetctl login-link --email <address>. Stop with Ctrl-C.", "");
  console.log(lines.join("\n"));
}
