import { type ChildProcess, type SpawnOptions, spawn, spawnSync } from "node:child_process";
import { closeSync, openSync, readFileSync } from "node:fs";
import { setTimeout as delay } from "node:timers/promises";
import { freePort } from "@fleet/testing/free-port";

/** Every child this bench started and that has not exited yet, so a failure can still stop them all. */
const live = new Set<ChildProcess>();
/** Children started as the leaders of their own process group (`pnpm …`): signals go to the group. */
const leaders = new WeakSet<ChildProcess>();

function hasExited(child: ChildProcess): boolean {
  return child.exitCode !== null || child.signalCode !== null;
}

function exitOf(child: ChildProcess): Promise<void> {
  if (hasExited(child)) return Promise.resolve();
  return new Promise((resolve) => child.once("exit", () => resolve()));
}

/** Spawns a tracked child. A spawn failure (e.g. wrk missing) surfaces as `spawnError`, not a crash. */
export function startProcess(command: string, args: string[], options: SpawnOptions): ChildProcess {
  const child = spawn(command, args, options);
  live.add(child);
  if (options.detached) leaders.add(child);
  child.once("exit", () => live.delete(child));
  child.once("error", (error) => {
    (child as ChildProcess & { spawnError?: Error }).spawnError = error;
    live.delete(child);
  });
  return child;
}

/** SIGTERM, then SIGKILL after `graceMs`: servers get to close their database (and write a --cpu-prof). */
export async function stopProcess(child: ChildProcess, graceMs = 5_000): Promise<void> {
  if (hasExited(child) || child.pid === undefined) return;
  const exit = exitOf(child);
  const signal = (name: NodeJS.Signals) => {
    if (!leaders.has(child)) return void child.kill(name);
    try {
      process.kill(-child.pid!, name);
    } catch {
      // the group is gone already
    }
  };
  signal("SIGTERM");
  const stopped = await Promise.race([exit.then(() => true), delay(graceMs).then(() => false)]);
  if (!stopped) {
    signal("SIGKILL");
    await exit;
  }
}

export async function stopAllProcesses(): Promise<void> {
  await Promise.all([...live].map((child) => stopProcess(child)));
}

export interface Server {
  name: string;
  child: ChildProcess;
  baseUrl: string;
  stdoutPath: string;
  stderrPath: string;
  /** `performance.now()` just before the spawn, for startup timing. */
  spawnedAt: number;
}

export interface ServerSpec {
  name: string;
  /** Arguments after `node`, e.g. `["scripts/start.mjs"]`. */
  nodeArgs: string[];
  /** A command to run instead of `node` (e.g. `pnpm`), in its own process group; `nodeArgs` are its arguments. */
  command?: string;
  cwd: string;
  env: Record<string, string>;
  /** Where the child's stdout and stderr go: files, so the access log costs what it costs in production. */
  logDir: string;
}

/** Starts a Node server on a fresh port with PORT set; does not wait for it to listen. */
export async function startServer(spec: ServerSpec): Promise<Server> {
  const port = await freePort();
  const slug = spec.name.replace(/[^A-Za-z0-9]+/g, "-").toLowerCase();
  const stdoutPath = `${spec.logDir}/${slug}.out`;
  const stderrPath = `${spec.logDir}/${slug}.err`;
  const stdout = openSync(stdoutPath, "w");
  const stderr = openSync(stderrPath, "w");
  try {
    const spawnedAt = performance.now();
    const child = startProcess(spec.command ?? process.execPath, spec.nodeArgs, {
      cwd: spec.cwd,
      detached: spec.command !== undefined,
      env: { ...process.env, ...spec.env, PORT: String(port), HOST: "127.0.0.1" },
      stdio: ["ignore", stdout, stderr],
    });
    const baseUrl = `http://127.0.0.1:${port}`;
    return { name: spec.name, child, baseUrl, stdoutPath, stderrPath, spawnedAt };
  } finally {
    // The child holds its own copies of the descriptors.
    closeSync(stdout);
    closeSync(stderr);
  }
}

/**
 * The API as `pnpm start:api` runs it (the bundle `scripts/start.mjs` builds and imports), optionally
 * writing a CPU profile into `profileDir` as it exits.
 */
export function apiServerSpec(
  name: string,
  options: { apiDir: string; logDir: string; env: Record<string, string>; profileDir?: string },
): ServerSpec {
  const profile =
    options.profileDir === undefined ? [] : ["--cpu-prof", `--cpu-prof-dir=${options.profileDir}`];
  return {
    name,
    nodeArgs: [...profile, "scripts/start.mjs"],
    cwd: options.apiDir,
    env: options.env,
    logDir: options.logDir,
  };
}

function tail(path: string, lines = 15): string {
  try {
    return readFileSync(path, "utf8").trimEnd().split("\n").slice(-lines).join("\n");
  } catch {
    return "(no output)";
  }
}

/** Polls `path` until it answers 200; fails early, with the child's stderr, if the child dies. */
export async function waitUntilReady(
  server: Server,
  path = "/healthz",
  { timeoutMs = 60_000, pollMs = 10 } = {},
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (hasExited(server.child)) {
      throw new Error(`${server.name} exited before it was ready:\n${tail(server.stderrPath)}`);
    }
    try {
      const response = await fetch(`${server.baseUrl}${path}`, { signal: AbortSignal.timeout(1_000) });
      await response.arrayBuffer();
      if (response.status === 200) return;
    } catch {
      // not listening yet
    }
    await delay(pollMs);
  }
  throw new Error(`${server.name} was not ready after ${timeoutMs} ms:\n${tail(server.stderrPath)}`);
}

/** Linux's USER_HZ: /proc reports CPU time in these ticks, and it is 100 on every mainstream build. */
const TICKS_PER_SECOND = 100;

/**
 * CPU time (user + system) a process has used, from /proc; undefined where there is no /proc. CPU per
 * request holds up on a busy box far better than requests/s, which other processes' load drags down.
 */
export function cpuTimeMs(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // Fields after the parenthesised command name, which may itself hold spaces; utime and stime are 14, 15.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
  } catch {
    return undefined;
  }
}

/**
 * CPU time of the whole machine from /proc/stat, in ms. Busy counts softirq and steal too: the kernel
 * charges loopback networking to the processes' stime, so leaving it out would hide other processes' load.
 */
function machineTimes(): { busy: number; all: number } | undefined {
  try {
    const [user, nice, system, idle, iowait, irq, softirq, steal] = readFileSync("/proc/stat", "utf8")
      .split("\n")[0]!
      .trim()
      .split(/\s+/)
      .slice(1)
      .map((ticks) => (Number(ticks) * 1000) / TICKS_PER_SECOND) as number[];
    const busy = user! + nice! + system! + irq! + softirq! + (steal ?? 0);
    return { busy, all: busy + idle! + iowait! };
  } catch {
    return undefined;
  }
}

function ourCpuMs(pids: (number | undefined)[]): number {
  const self = process.cpuUsage();
  return pids.reduce<number>((sum, pid) => sum + (cpuTimeMs(pid) ?? 0), (self.user + self.system) / 1000);
}

/**
 * Starts counting CPU time across the machine. The returned function gives the share of all cores (0..1)
 * that processes other than this one, `pids`, and `extraOursMs` (CPU of ours that exited) used since:
 * on a shared box, the load a run competed with. Undefined without /proc.
 */
export function othersMeter(pids: (number | undefined)[]): (extraOursMs?: number) => number | undefined {
  const before = machineTimes();
  const oursBefore = ourCpuMs(pids);
  return (extraOursMs = 0) => {
    const after = machineTimes();
    if (before === undefined || after === undefined || after.all === before.all) return undefined;
    const ours = ourCpuMs(pids) - oursBefore + extraOursMs;
    const others = after.busy - before.busy - ours;
    return Math.min(1, Math.max(0, others / (after.all - before.all)));
  };
}

/**
 * Keeps a process and its threads (existing and later ones) on `cpus` (`taskset -a -p -c`). A measurement
 * that pins the server to one core and its load generator to the other stops the two trading places with
 * each other from run to run. Answers false where it cannot (no taskset, one core).
 */
export function pinToCpus(pid: number | undefined, cpus: string): boolean {
  if (pid === undefined) return false;
  const result = spawnSync("taskset", ["-a", "-p", "-c", cpus, String(pid)], { stdio: "ignore" });
  return result.status === 0;
}

/**
 * Pins a server to CPU 0 and answers the wrk options that keep its load generator on CPU 1 (spread into
 * `runWrk`'s options); nothing where the server cannot be pinned, so both then float as before.
 */
export function pinApart(serverPid: number | undefined): { cpus?: string } {
  return pinToCpus(serverPid, "0") ? { cpus: "1" } : {};
}
