// `pnpm test`: every check, one suite after another (the machine has two cores): lint and types, unit
// and API tests (the API suite on PGlite and, when reachable, on PostgreSQL), then the browser tests.
// Every suite runs once, on Node 24: on an older Node this script runs itself again on Node 24
// (scripts/node24.mjs), and whatever it starts inherits that Node.
import { spawnSync } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { onNode24 } from "./node24.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
await onNode24(root);
const env = {
  ...process.env,
  TURBO_TELEMETRY_DISABLED: "1",
  NEXT_TELEMETRY_DISABLED: "1",
  PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: "1",
};

const suites = [
  ["lint", ["lint"]],
  ["house", ["house"]],
  ["typecheck", ["typecheck"]],
  ["contracts", ["--filter", "@fleet/contracts", "test"]],
  ["db", ["--filter", "@fleet/db", "test"]],
  ["testing", ["--filter", "@fleet/testing", "test"]],
  ["api", ["--filter", "@fleet/api", "test"]],
  ["runner", ["--filter", "@fleet/runner", "test"]],
  ["ui", ["--filter", "@fleet/ui", "test"]],
  ["console", ["--filter", "@fleet/console", "test"]],
  ["e2e", ["--filter", "@fleet/e2e", "test"]],
];

let passed = 0;
let failed = 0;
console.log(`node ${process.version}`);
for (const [name, args] of suites) {
  console.log(`\n=== ${name} ===`);
  const started = Date.now();
  const result = spawnSync("pnpm", args, { cwd: root, env, stdio: "inherit" });
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
