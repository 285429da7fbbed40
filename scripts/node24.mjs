// Node 24, the LTS and the one Node this project runs on (`engines`), where the machine ships an older one
// (Debian's is 20, past its end of life): the npm registry's `node-<platform>-<arch>` package holds the
// official binary (no install script, no other download), kept under .tools/node24 and installed there on
// first use. `scripts/setup.sh` and `.ci/run` put it first on the search path; `pnpm start` and `pnpm test`
// re-run themselves on it, so everything they start runs on Node 24 too.
//
// As a command (`node scripts/node24.mjs`) it prints the directory to put first on PATH: nothing when the
// running Node is already 24 or newer, and exits 1 when Node 24 could not be installed.
import { spawn, spawnSync } from "node:child_process";
import { realpathSync } from "node:fs";
import { constants } from "node:os";
import { delimiter, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export const NODE24_MAJOR = 24;

/** Whether the Node running this script is new enough. */
export const runningNode24 = Number(process.versions.node.split(".")[0]) >= NODE24_MAJOR;

function versionAt(bin) {
  const result = spawnSync(join(bin, "node"), ["--version"], { encoding: "utf8" });
  return result.status === 0 ? result.stdout.trim() : null;
}

/** The directory holding a Node 24 `node`, installed when absent; null (having said why) when it cannot be. */
export function node24Bin(root) {
  const prefix = join(root, ".tools", "node24");
  const bin = join(prefix, "node_modules", ".bin");
  const isMajor = (version) => version?.startsWith(`v${NODE24_MAJOR}.`) === true;
  if (isMajor(versionAt(bin))) return bin;
  const spec = `node-${process.platform}-${process.arch}@${NODE24_MAJOR}`;
  console.error(`installing Node ${NODE24_MAJOR} (${spec}) from the npm registry into .tools/node24…`);
  const installed = spawnSync(
    "npm",
    ["install", "--prefix", prefix, "--no-save", "--no-audit", "--no-fund", "--loglevel=error", spec],
    { cwd: root, stdio: ["ignore", "ignore", "inherit"] },
  );
  if (installed.status === 0 && isMajor(versionAt(bin))) return bin;
  console.error(
    `Node ${NODE24_MAJOR} could not be installed (npm exit ${installed.status ?? installed.signal})`,
  );
  return null;
}

/**
 * Returns at once on Node 24 or newer. On an older Node it runs this same script again on Node 24 (with
 * Node 24 first on the search path for everything it starts, and this process's Node options), exits with
 * its status (128 + the signal's number when a signal ended it), and never returns. SIGTERM and SIGHUP are
 * passed on; so is SIGINT when no terminal is attached (from a terminal, Ctrl+C reaches both processes).
 */
export function onNode24(root) {
  if (runningNode24) return Promise.resolve();
  const bin = node24Bin(root);
  if (bin === null) process.exit(1);
  const child = spawn(join(bin, "node"), [...process.execArgv, ...process.argv.slice(1)], {
    stdio: "inherit",
    env: { ...process.env, PATH: `${bin}${delimiter}${process.env.PATH ?? ""}` },
  });
  const passOn = (signal) => () => child.kill(signal);
  process.on("SIGTERM", passOn("SIGTERM"));
  process.on("SIGHUP", passOn("SIGHUP"));
  process.on("SIGINT", process.stdin.isTTY ? () => {} : passOn("SIGINT"));
  child.on("error", (error) => {
    console.error(`Node ${NODE24_MAJOR} could not be started: ${error.message}`);
    process.exit(1);
  });
  child.on("exit", (code, signal) => process.exit(code ?? 128 + (constants.signals[signal] ?? 0)));
  return new Promise(() => {});
}

// Run as a command (compared through symlinks: a checkout reached by a link must still print the path).
const invoked = process.argv[1] === undefined ? null : realpathSync(process.argv[1]);
if (invoked === realpathSync(fileURLToPath(import.meta.url)) && !runningNode24) {
  const bin = node24Bin(join(dirname(fileURLToPath(import.meta.url)), ".."));
  if (bin === null) process.exit(1);
  console.log(bin);
}
