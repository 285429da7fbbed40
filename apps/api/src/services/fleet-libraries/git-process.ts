import { spawn } from "node:child_process";
import type { Dirent } from "node:fs";
import { lstat, readdir } from "node:fs/promises";
import { join } from "node:path";

/** Bytes of the files under `dir`, stopping once past `limit`. A vanished entry counts as nothing. */
export async function dirBytes(dir: string, limit: number): Promise<number> {
  let total = 0;
  const pending = [dir];
  while (pending.length > 0 && total <= limit) {
    const current = pending.pop()!;
    let entries: Dirent[];
    try {
      entries = await readdir(current, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const entry of entries) {
      const path = join(current, entry.name);
      if (entry.isDirectory()) pending.push(path);
      else
        total += await lstat(path).then(
          (stat) => stat.size,
          () => 0,
        );
    }
  }
  return total;
}

/** The process was killed: at its deadline, or past a byte ceiling. */
export class Overrun extends Error {
  constructor(readonly reason: "time" | "bytes") {
    super(reason);
  }
}

export interface RunOptions {
  /** The child's whole environment: nothing of the service's own is passed on. */
  env: Record<string, string>;
  deadline: number;
  maxStdout: number;
  /** Kill the process once the files under `dir` pass `bytes`. */
  watch?: { dir: string; bytes: number };
}

/**
 * Runs git with arguments, never through a shell. It runs in its own process group, so a kill at the
 * deadline or a ceiling also ends the helpers it started (remote-https, index-pack); the promise settles
 * only once the process has exited.
 */
export function run(
  args: string[],
  options: RunOptions,
): Promise<{ code: number | null; stdout: Buffer; stderr: string }> {
  return new Promise((resolve, reject) => {
    // Stricter global typings (Next's, which the console applies to the router types it imports) make
    // NODE_ENV a required variable; git is deliberately not given it.
    const env = options.env as NodeJS.ProcessEnv;
    const child = spawn("git", args, { env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
    let overrun: Overrun | null = null;
    const stop = (reason: "time" | "bytes") => {
      if (overrun !== null) return;
      overrun = new Overrun(reason);
      try {
        if (child.pid !== undefined) process.kill(-child.pid, "SIGKILL");
      } catch {
        // already exited
      }
    };
    const timer = setTimeout(() => stop("time"), Math.max(0, options.deadline - Date.now()));
    let polling = false;
    const watch = options.watch;
    const poller =
      watch &&
      setInterval(() => {
        if (polling) return;
        polling = true;
        void dirBytes(watch.dir, watch.bytes).then((bytes) => {
          polling = false;
          if (bytes > watch.bytes) stop("bytes");
        });
      }, 100);
    const stdout: Buffer[] = [];
    let stdoutBytes = 0;
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => {
      stdoutBytes += chunk.length;
      if (stdoutBytes > options.maxStdout) stop("bytes");
      else stdout.push(chunk);
    });
    child.stderr.on("data", (chunk: Buffer) => {
      stderr = (stderr + chunk.toString("utf8")).slice(-4096);
    });
    child.once("error", (error) => {
      clearTimeout(timer);
      if (poller) clearInterval(poller);
      reject(error);
    });
    child.once("close", (code) => {
      clearTimeout(timer);
      if (poller) clearInterval(poller);
      if (overrun !== null) reject(overrun);
      else resolve({ code, stdout: Buffer.concat(stdout), stderr });
    });
  });
}

/** The last line git explained a failure with, fit for a problem's detail. */
export function reason(stderr: string): string {
  const lines = stderr
    .split("\n")
    // biome-ignore lint/suspicious/noControlCharactersInRegex: stripping control characters is the point
    .map((line) => line.replace(/[\u0000-\u001f\u007f]/g, "").trim())
    .filter((line) => line.length > 0);
  const line = lines.findLast((l) => /^(fatal|error):/.test(l)) ?? lines.at(-1) ?? "git gave no reason";
  return line.replace(/^(fatal|error):\s*/, "").slice(0, 300);
}
