import { linkSync, readFileSync, renameSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
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
    const dir = lockPath.replace(/\/[^/]+$/, "");
    super(
      holder.pid > 0
        ? `the embedded database at ${dir} is in use by process ${holder.pid} (lock file ${lockPath}); stop that process, or point DATABASE_URL at another directory`
        : `the embedded database at ${dir} is being opened by other processes that keep taking its lock (lock file ${lockPath}); start one at a time`,
    );
    this.name = "DataDirLockedError";
  }

  /**
   * Throws when a live process holds `dir`, so a server can refuse before it binds its port. Only a
   * check: the lock itself is taken when the database opens, which can still lose a race to a start that
   * checked at the same moment (and then throws this same error).
   */
  static throwIfHeld(dir: string): void {
    const holder = readLock(dir);
    if (holder) throw new DataDirLockedError(lockPathOf(dir), holder);
  }
}

/** How long an opener keeps retrying while other openers churn the lock before it gives up. */
const GIVE_UP_MS = 5_000;
/** The pause while another opener holds the takeover guard, which it holds for a few system calls. */
const GUARD_WAIT_MS = 5;

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

/** The holder a lock's text names, or null when that process is gone or the text names nobody. */
function liveHolder(text: string): LockInfo | null {
  try {
    const info = JSON.parse(text) as LockInfo;
    return alive(info.pid) ? info : null;
  } catch {
    return null;
  }
}

/** Reads the lock of a data directory; null when nobody live holds it. */
export function readLock(dir: string): LockInfo | null {
  try {
    return liveHolder(readFileSync(lockPathOf(dir), "utf8"));
  } catch {
    return null;
  }
}

/** A file's text, or null when it does not exist. */
function readText(path: string): string | null {
  try {
    return readFileSync(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
}

/** Creates `path` as a second name of `source`: atomically, with its whole content, and only if absent. */
function tryLink(source: string, path: string): boolean {
  try {
    linkSync(source, path);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw error;
  }
}

/**
 * Replaces the lock whose text is `stale` (its holder is dead) with `staging`, unless another opener got
 * there first; false means look at the lock again. Deleting a stale lock and creating a fresh one is two
 * steps, and a delayed opener's delete used to remove the lock another had just created; instead only
 * the holder of the guard replaces a lock, after re-reading it under the guard, in one rename.
 */
function takeOver(path: string, guard: string, staging: string, stale: string): boolean {
  if (!tryLink(staging, guard)) {
    const text = readText(guard);
    if (text === null) return false;
    if (liveHolder(text) === null)
      rmSync(guard, { force: true }); // its opener died mid-takeover
    else Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, GUARD_WAIT_MS);
    return false;
  }
  try {
    if (readText(path) !== stale) return false;
    renameSync(staging, path);
    return true;
  } finally {
    rmSync(guard, { force: true });
  }
}

function releaser(path: string, content: string): () => void {
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    process.off("exit", release);
    try {
      // A lock with other content is another opener's, taken over after this one was judged dead.
      if (readFileSync(path, "utf8") === content) unlinkSync(path);
    } catch {
      // already gone, or the directory with it
    }
  };
  process.on("exit", release);
  return release;
}

/**
 * Takes the data directory's lock for this process, or throws naming the holder. A lock left by a dead
 * process is taken over. PGlite has no lock of its own: two openers silently lose writes.
 *
 * The lock file never exists without its content: it is written to a staging file first and linked into
 * place (EEXIST when held), so a concurrent opener cannot read it half-written and judge it stale. A stale
 * lock is replaced under the takeover guard (see `takeOver`), and a release removes the lock only while
 * it still holds this process's content. One window remains: a guard left by an opener killed during
 * its few system calls of takeover is removed by whoever finds it, and two openers finding it at once can
 * each remove the other's fresh guard, take it, and both take the lock. Liveness is by pid, so a dead
 * holder's pid reused by another process keeps the directory locked until that process ends.
 */
export function acquireLock(dir: string, socket: string | null): () => void {
  const path = lockPathOf(dir);
  const guard = `${path}.takeover`;
  const staging = `${path}.${process.pid}`;
  const content = JSON.stringify({ pid: process.pid, socket } satisfies LockInfo);
  // A staging file a previous life of this pid left may be a name of a lock: replace it, never rewrite it.
  rmSync(staging, { force: true });
  writeFileSync(staging, content, { flag: "wx", mode: 0o600 });
  try {
    const deadline = Date.now() + GIVE_UP_MS;
    while (Date.now() < deadline) {
      if (tryLink(staging, path)) return releaser(path, content);
      const text = readText(path);
      if (text === null) continue; // released meanwhile
      const holder = liveHolder(text);
      if (holder) throw new DataDirLockedError(path, holder);
      if (takeOver(path, guard, staging, text)) return releaser(path, content);
    }
    const holder = readLock(dir) ?? liveHolder(readText(guard) ?? "");
    throw new DataDirLockedError(path, holder ?? { pid: -1, socket: null });
  } finally {
    rmSync(staging, { force: true });
  }
}
