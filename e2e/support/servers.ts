import { type ChildProcess, spawn } from "node:child_process";
import { createWriteStream, mkdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export const e2eDir = join(dirname(fileURLToPath(import.meta.url)), "..");
export const repoRoot = join(e2eDir, "..");
const logDir = join(e2eDir, "logs");

export interface Server {
  name: string;
  child: ChildProcess;
  logPath: string;
}

/** Starts a server in its own process group, so stopping it also stops anything it spawned. */
export function startServer(
  name: string,
  command: string,
  args: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv },
): Server {
  mkdirSync(logDir, { recursive: true });
  const logPath = join(logDir, `${name}.log`);
  const log = createWriteStream(logPath);
  const child = spawn(command, args, { ...options, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  child.stdout?.pipe(log);
  child.stderr?.pipe(log);
  return { name, child, logPath };
}

function tail(path: string): string {
  try {
    return readFileSync(path, "utf8").split("\n").slice(-30).join("\n");
  } catch {
    return "(no log)";
  }
}

/** Waits until the URL answers 2xx–3xx; fails early, with the server's log, if the server exits. */
export async function waitForUrl(server: Server, url: string, seconds: number): Promise<void> {
  const deadline = Date.now() + seconds * 1000;
  while (Date.now() < deadline) {
    if (server.child.exitCode !== null) {
      throw new Error(`${server.name} exited with ${server.child.exitCode}:\n${tail(server.logPath)}`);
    }
    try {
      const response = await fetch(url, { redirect: "manual" });
      if (response.status < 400) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`${server.name} did not answer ${url} within ${seconds}s:\n${tail(server.logPath)}`);
}

/** SIGTERM to the server's process group, SIGKILL if it has not exited after a grace period. */
export async function stopServer(server: Server, graceMs = 10_000): Promise<void> {
  const { child } = server;
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const signalGroup = (signal: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, signal);
    } catch {
      // the group is already gone
    }
  };
  signalGroup("SIGTERM");
  const timer = setTimeout(() => signalGroup("SIGKILL"), graceMs);
  await exited;
  clearTimeout(timer);
}
