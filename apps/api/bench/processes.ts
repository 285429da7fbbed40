import { type ChildProcess, type SpawnOptions, spawn } from "node:child_process";
import { closeSync, openSync, readFileSync } from "node:fs";
import { createServer } from "node:net";
import { setTimeout as delay } from "node:timers/promises";

/** Every child this bench started and that has not exited yet, so a failure can still stop them all. */
const live = new Set<ChildProcess>();

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
  child.kill("SIGTERM");
  const stopped = await Promise.race([exit.then(() => true), delay(graceMs).then(() => false)]);
  if (!stopped) {
    child.kill("SIGKILL");
    await exit;
  }
}

export async function stopAllProcesses(): Promise<void> {
  await Promise.all([...live].map((child) => stopProcess(child)));
}

/** A port nobody listens on right now; the child binds it a moment later (a race we accept on a bench box). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", resolve);
  });
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (address === null || typeof address === "string") throw new Error("could not find a free port");
  return address.port;
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
  /** Arguments after `node`, e.g. `["--import", "tsx", "src/main.ts"]`. */
  nodeArgs: string[];
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
    const child = startProcess(process.execPath, spec.nodeArgs, {
      cwd: spec.cwd,
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
