// Races for an embedded data directory's lock (packages/db/src/lock.test.ts): says "ready", waits for a
// line on stdin so every racer starts at once, then says "acquired" or "locked". A winner holds the lock
// for a second, so every other racer decides while it is held.
import { acquireLock } from "../src/lock.ts";

const dir = process.argv[2]!;
process.stdout.write("ready\n");
process.stdin.once("data", () => {
  let release: () => void;
  try {
    release = acquireLock(dir, null);
  } catch (error) {
    if ((error as Error).name !== "DataDirLockedError") throw error;
    process.stdout.write("locked\n");
    process.exit(0);
  }
  process.stdout.write("acquired\n");
  setTimeout(() => {
    release();
    process.exit(0);
  }, 1000);
});
