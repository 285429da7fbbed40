// `pnpm test`: every check, one suite after another (the machine has two cores): lint and types, unit
// and API tests (the API suite on PGlite and, when reachable, on PostgreSQL), then the browser tests.
// The API and runner suites run again on Node 24 (the LTS; the machine's own Node is 20), so both
// supported majors are proven.
import { spawnSync } from "node:child_process";
import { delimiter, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { NODE24_MAJOR, node24Bin } from "./node24.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const env = {
  ...process.env,
  TURBO_TELEMETRY_DISABLED: "1",
  NEXT_TELEMETRY_DISABLED: "1",
  PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: "1",
};

const suites = [
  ["lint", ["lint"]],
  ["typecheck", ["typecheck"]],
  ["contracts", ["--filter", "@fleet/contracts", "test"]],
  ["db", ["--filter", "@fleet/db", "test"]],
  ["api", ["--filter", "@fleet/api", "test"]],
  ["runner", ["--filter", "@fleet/runner", "test"]],
  ["ui", ["--filter", "@fleet/ui", "test"]],
  ["console", ["--filter", "@fleet/console", "test"]],
  ["e2e", ["--filter", "@fleet/e2e", "test"]],
  [`api on Node ${NODE24_MAJOR}`, ["--filter", "@fleet/api", "test"], { node24: true }],
  [`runner on Node ${NODE24_MAJOR}`, ["--filter", "@fleet/runner", "test"], { node24: true }],
];

/** The environment with Node 24 first on the search path: pnpm, vitest and what they spawn run on it. */
let node24Env;
function withNode24() {
  if (node24Env === undefined) {
    const bin = node24Bin(root);
    node24Env = bin === null ? null : { ...env, PATH: `${bin}${delimiter}${env.PATH ?? ""}` };
  }
  return node24Env;
}

let passed = 0;
let failed = 0;
for (const [name, args, options = {}] of suites) {
  console.log(`\n=== ${name} ===`);
  const started = Date.now();
  const suiteEnv = options.node24 ? withNode24() : env;
  let result = { status: 1, signal: null };
  if (suiteEnv !== null) {
    if (options.node24) {
      // What the suite's processes will run on, as pnpm starts them.
      const version = spawnSync("pnpm", ["exec", "node", "--version"], {
        cwd: root,
        env: suiteEnv,
        encoding: "utf8",
      });
      console.log(`(node ${version.stdout.trim()})`);
    }
    result = spawnSync("pnpm", args, { cwd: root, env: suiteEnv, stdio: "inherit" });
  }
  const took = `${Math.round((Date.now() - started) / 1000)} s`;
  if (result.status === 0) {
    passed++;
    console.log(`=== ${name} passed (${took}) ===`);
  } else {
    failed++;
    console.error(`=== ${name} failed (exit ${result.status ?? result.signal}, ${took}) ===`);
  }
}
console.log(`\nsuites: ${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
