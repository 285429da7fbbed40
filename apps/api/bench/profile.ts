import { copyFileSync, readdirSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";

/** The parts of a V8 `.cpuprofile` (as written by `node --cpu-prof`) this summary reads. */
interface CpuProfile {
  nodes: {
    id: number;
    callFrame: { functionName: string; url: string; lineNumber: number };
    children?: number[];
  }[];
  samples: number[];
  /** Microseconds since the previous sample. */
  timeDeltas: number[];
}

export interface SelfTime {
  label: string;
  ms: number;
  share: number;
}

export interface ProfileSummary {
  totalMs: number;
  functions: SelfTime[];
  areas: SelfTime[];
  /** For the top functions without code of their own (native, V8's): the JavaScript that called them. */
  callers: { of: string; from: SelfTime[] }[];
}

/** Where a frame's code lives: an npm package, Node's own code, this repo's packages, or a V8 bucket. */
export function areaOf(url: string, functionName: string): string {
  if (url === "") return functionName.startsWith("(") ? functionName : "(native)";
  if (url.startsWith("node:")) return "node core";
  if (url.startsWith("wasm://")) return "wasm (PGlite)";
  const packages = [...url.matchAll(/node_modules\/((?:@[^/]+\/)?[^/]+)/g)];
  if (packages.length > 0) return packages.at(-1)![1]!;
  if (url.includes("/apps/api/src/")) return "api src";
  // The bundle `pnpm start:api` runs: the API's code and the packages it bundles, in one place.
  if (url.includes("/apps/api/dist/")) return "api bundle";
  const workspace = /\/packages\/([^/]+)\//.exec(url);
  if (workspace) return `@fleet/${workspace[1]}`;
  return "other";
}

function shortLocation(url: string, line: number): string {
  if (url === "") return "";
  const path = url
    .replace(/^file:\/\//, "")
    .replace(/^.*node_modules\/\.pnpm\/[^/]+\/node_modules\//, "")
    .replace(/^.*\/(apps|packages)\//, "$1/");
  return `${path}:${line + 1}`;
}

function ranked(times: Map<string, number>, totalMs: number, limit: number): SelfTime[] {
  return [...times]
    .sort((a, b) => b[1] - a[1])
    .slice(0, limit)
    .map(([label, ms]) => ({ label, ms, share: ms / totalMs }));
}

/** Self time per function and per area; `(idle)` is left out, so shares are of the time spent working. */
export function summariseProfile(path: string, limit = 15): ProfileSummary {
  const profile = JSON.parse(readFileSync(path, "utf8")) as CpuProfile;
  const frames = new Map(profile.nodes.map((node) => [node.id, node.callFrame]));
  const byFunction = new Map<string, number>();
  const byArea = new Map<string, number>();
  const parents = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parents.set(child, node.id);
  // A native frame's self time, by the nearest caller that is code of its own (not native, not Node's).
  const byCaller = new Map<string, Map<string, number>>();
  let totalMs = 0;
  profile.samples.forEach((id, index) => {
    const frame = frames.get(id);
    if (frame === undefined || frame.functionName === "(idle)") return;
    const ms = (profile.timeDeltas[index] ?? 0) / 1_000;
    totalMs += ms;
    const name = frame.functionName || "(anonymous)";
    const location = shortLocation(frame.url, frame.lineNumber);
    const key = location ? `${name}  ${location}` : name;
    byFunction.set(key, (byFunction.get(key) ?? 0) + ms);
    const area = areaOf(frame.url, frame.functionName);
    byArea.set(area, (byArea.get(area) ?? 0) + ms);
    if (frame.url === "" && !name.startsWith("(")) {
      const callers = byCaller.get(key) ?? new Map<string, number>();
      byCaller.set(key, callers);
      const caller = codeCaller(id, parents, frames);
      callers.set(caller, (callers.get(caller) ?? 0) + ms);
    }
  });
  const functions = ranked(byFunction, totalMs, limit);
  const callers = functions
    .filter((entry) => byCaller.has(entry.label))
    .slice(0, 3)
    .map((entry) => ({ of: entry.label, from: ranked(byCaller.get(entry.label)!, totalMs, 5) }));
  return { totalMs, functions, areas: ranked(byArea, totalMs, limit), callers };
}

/** The nearest frame above `id` whose code is neither native nor Node's own, as `name  file:line`. */
function codeCaller(
  id: number,
  parents: Map<number, number>,
  frames: Map<number, { functionName: string; url: string; lineNumber: number }>,
): string {
  for (let at = parents.get(id); at !== undefined; at = parents.get(at)) {
    const frame = frames.get(at);
    if (frame === undefined || frame.url === "" || frame.url.startsWith("node:")) continue;
    return `${frame.functionName || "(anonymous)"}  ${shortLocation(frame.url, frame.lineNumber)}`;
  }
  return "(no caller in JavaScript)";
}

export function formatSummary(summary: ProfileSummary): string {
  const line = (entry: SelfTime) =>
    `  ${(entry.share * 100).toFixed(1).padStart(5)}%  ${entry.ms.toFixed(0).padStart(6)} ms  ${entry.label}`;
  return [
    `Busy (non-idle) CPU time sampled: ${summary.totalMs.toFixed(0)} ms`,
    "Self time by area:",
    ...summary.areas.map(line),
    "Top functions by self time:",
    ...summary.functions.map(line),
    ...summary.callers.flatMap((entry) => [`Where ${entry.of} was called from:`, ...entry.from.map(line)]),
  ].join("\n");
}

/**
 * The main thread's profile in `dir`: Node writes one per thread, and tsx's loader hooks run in a
 * worker, so the main thread's is the largest.
 */
export function mainThreadProfile(dir: string): string | undefined {
  const files = readdirSync(dir).filter((name) => name.endsWith(".cpuprofile"));
  const largest = files.sort((a, b) => statSync(join(dir, b)).size - statSync(join(dir, a)).size)[0];
  return largest === undefined ? undefined : join(dir, largest);
}

/** Prints the summary of the main thread's profile in `dir`, if there is one. */
export function printProfileIn(dir: string, heading: string, limit = 25): void {
  const path = mainThreadProfile(dir);
  if (path === undefined) return;
  console.log(`\n${heading}`);
  console.log(formatSummary(summariseProfile(path, limit)));
  // Kept past the bench's work directory, for a closer look (Chromium's DevTools, or a script).
  const kept = join(tmpdir(), `fleet-bench-${process.pid}-${basename(dir)}.cpuprofile`);
  copyFileSync(path, kept);
  console.log(`  (the profile is kept at ${kept})`);
}
