// Node 24, the LTS and the one Node this project runs on (`engines`), where the machine ships an older one
// (Debian's is 20, past its end of life): the npm registry's `node-<platform>-<arch>` package holds the
// official binary (no install script, no other download), kept under .tools/node24 and installed there on
// first use. `scripts/setup.sh` and `.ci/run` put it first on the search path; `pnpm start` and `pnpm test`
// re-run themselves on it, so everything they start runs on Node 24 too.
//
// As a command (`node scripts/node24.mjs`) it prints the directory to put first on PATH: nothing when the
// running Node is already 24 or newer, and exits 1 when Node 24 could not be installed.
import { spawn, spawnSync } from "node:child_process";
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
 * Node 24 first on the search path for everything it starts), exits with its status, and never returns.
 * A Ctrl+C reaches both processes from the terminal, so only SIGTERM is passed on.
 */
export function onNode24(root) {
  if (runningNode24) return Promise.resolve();
  const bin = node24Bin(root);
  if (bin === null) process.exit(1);
  const child = spawn(join(bin, "node"), process.argv.slice(1), {
    stdio: "inherit",
    env: { ...process.env, PATH: `${bin}${delimiter}${process.env.PATH ?? ""}` },
  });
  process.on("SIGINT", () => {});
  process.on("SIGTERM", () => child.kill("SIGTERM"));
  child.on("exit", (code, signal) => process.exit(code ?? (signal === "SIGINT" ? 130 : 1)));
  return new Promise(() => {});
}

if (process.argv[1] === fileURLToPath(import.meta.url) && !runningNode24) {
  const bin = node24Bin(join(dirname(fileURLToPath(import.meta.url)), ".."));
  if (bin === null) process.exit(1);
  console.log(bin);
}
