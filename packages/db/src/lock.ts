import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from "node:fs";
import { join } from "node:path";

/** What the process holding an embedded data directory writes into its lock file. */
export interface LockInfo {
  pid: number;
  /** Unix socket on which the holder answers operator commands (fleetctl), when it serves one. */
  socket: string | null;
}

export class DataDirLockedError extends Error {
  constructor(
    readonly lockPath: string,
    readonly holder: LockInfo,
  ) {
    super(
      `the embedded database at ${lockPath.replace(/\/[^/]+$/, "")} is in use by process ${holder.pid} (lock file ${lockPath}); stop that process, or point DATABASE_URL at another directory`,
    );
    this.name = "DataDirLockedError";
  }
}

function alive(pid: number): boolean {
  // A lock naming this very process is one a previous life of it left (pids are reused in containers).
  if (pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

export function lockPathOf(dir: string): string {
  return join(dir, "fleet.lock");
}

/** Reads the lock of a data directory; null when nobody live holds it. */
export function readLock(dir: string): LockInfo | null {
  try {
    const info = JSON.parse(readFileSync(lockPathOf(dir), "utf8")) as LockInfo;
    return alive(info.pid) ? info : null;
  } catch {
    return null;
  }
}

/**
 * Takes the data directory's lock for this process, or throws naming the holder. A lock left by a dead
 * process is taken over. PGlite has no lock of its own: two openers silently lose writes.
 */
export function acquireLock(dir: string, socket: string | null): () => void {
  const path = lockPathOf(dir);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(path, "wx", 0o600);
      writeSync(fd, JSON.stringify({ pid: process.pid, socket } satisfies LockInfo));
      closeSync(fd);
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        try {
          unlinkSync(path);
        } catch {
          // already gone
        }
        process.off("exit", release);
      };
      process.on("exit", release);
      return release;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const holder = readLock(dir);
      if (holder) throw new DataDirLockedError(path, holder);
      try {
        unlinkSync(path); // a dead process's lock
      } catch {
        // another opener removed it first; retry
      }
    }
  }
  const holder = readLock(dir);
  throw new DataDirLockedError(path, holder ?? { pid: -1, socket: null });
}
