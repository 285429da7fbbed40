// Node 24, the current LTS, beside the Node this machine ships (Debian's 20): the npm registry's
// `node-<platform>-<arch>` package holds the official binary (no install script, no other download), kept
// under .tools/node24 and installed there on first use. `pnpm test` runs the API and runner suites on it.
import { spawnSync } from "node:child_process";
import { join } from "node:path";

export const NODE24_MAJOR = 24;

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
  console.log(`installing Node ${NODE24_MAJOR} (${spec}) from the npm registry into .tools/node24…`);
  const installed = spawnSync(
    "npm",
    ["install", "--prefix", prefix, "--no-save", "--no-audit", "--no-fund", "--loglevel=error", spec],
    { cwd: root, stdio: "inherit" },
  );
  if (installed.status === 0 && isMajor(versionAt(bin))) return bin;
  console.error(
    `Node ${NODE24_MAJOR} could not be installed (npm exit ${installed.status ?? installed.signal})`,
  );
  return null;
}
