import { type ChildProcessWithoutNullStreams, spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DataDirLockedError, openDatabase } from "./index.ts";
import { lockPathOf } from "./lock.ts";

const dir = mkdtempSync(join(tmpdir(), "fleet-lock-"));
let holder: ChildProcessWithoutNullStreams;
let output = "";

function waitFor(text: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`timed out waiting for ${text}: ${output}`)), 60_000);
    const check = () => {
      if (output.includes(text)) {
        clearTimeout(timer);
        resolve();
      }
    };
    holder.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      check();
    });
    check();
  });
}

describe("the embedded data directory lock", () => {
  beforeAll(async () => {
    holder = spawn(process.execPath, [
      "--import",
      "tsx",
      join(import.meta.dirname, "..", "test", "hold.ts"),
      dir,
    ]);
    holder.stderr.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    await waitFor("ready");
  }, 90_000);

  afterAll(() => {
    holder.kill("SIGKILL");
    rmSync(dir, { recursive: true, force: true });
  });

  it("refuses a second opener with an error naming the lock and its holder", async () => {
    const error = await openDatabase(`pglite://${dir}`).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DataDirLockedError);
    expect((error as Error).message).toContain(join(dir, "fleet.lock"));
    expect((error as Error).message).toContain(String(holder.pid));
  });

  it("is released when its holder stops", async () => {
    const exited = new Promise((resolve) => holder.once("exit", resolve));
    holder.stdin.end();
    await exited;
    const reopened = await openDatabase(`pglite://${dir}`);
    await reopened.close();
  });

  it("is taken over from a holder that was killed", async () => {
    const victim = spawn(process.execPath, [
      "--import",
      "tsx",
      join(import.meta.dirname, "..", "test", "hold.ts"),
      dir,
    ]);
    await new Promise<void>((resolve) =>
      victim.stdout.on("data", (chunk: Buffer) => chunk.toString().includes("ready") && resolve()),
    );
    const killed = new Promise((resolve) => victim.once("exit", resolve));
    victim.kill("SIGKILL");
    await killed;
    const reopened = await openDatabase(`pglite://${dir}`);
    await reopened.close();
  }, 90_000);
});

const RACERS = 8;
const ROUNDS = 4;

/** One process racing for `dir`'s lock: ready once it has loaded, its outcome once it has exited. */
function racer(dir: string): {
  child: ChildProcessWithoutNullStreams;
  ready: Promise<void>;
  outcome: Promise<string>;
} {
  const child = spawn(process.execPath, [
    "--import",
    "tsx",
    join(import.meta.dirname, "..", "test", "race-lock.ts"),
    dir,
  ]);
  let output = "";
  child.stderr.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
  const ready = new Promise<void>((resolve, reject) => {
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes("ready\n")) resolve();
    });
    void exited.then(() => reject(new Error(`a racer exited before it was ready: ${output}`)));
  });
  const outcome = exited.then((code) => {
    const said = output.replace("ready\n", "").trim();
    return code === 0 && (said === "acquired" || said === "locked") ? said : `exit ${code}: ${output}`;
  });
  return { child, ready, outcome };
}

/** Starts the racers together on `dir` and answers what each got, sorted. */
async function race(dir: string): Promise<string[]> {
  const racers = Array.from({ length: RACERS }, () => racer(dir));
  await Promise.all(racers.map(({ ready }) => ready));
  for (const { child } of racers) child.stdin.write("go\n");
  return (await Promise.all(racers.map(({ outcome }) => outcome))).sort();
}

/**
 * Openers starting at the same moment: a lock file read before its content was written, or a stale lock
 * deleted by a late opener after another had replaced it, used to let two of them in. Several rounds,
 * because a lost race is a matter of timing.
 */
describe("the embedded data directory lock, raced", () => {
  const exactlyOne = ["acquired", ...Array<string>(RACERS - 1).fill("locked")];

  it.each([
    ["a fresh directory", () => {}],
    [
      "a directory whose holder died",
      (raced: string) => {
        const { pid } = spawnSync(process.execPath, ["-e", ""]);
        writeFileSync(lockPathOf(raced), JSON.stringify({ pid, socket: null }));
      },
    ],
  ])(
    "admits exactly one opener to %s",
    async (_, prepare) => {
      for (let round = 1; round <= ROUNDS; round++) {
        const raced = mkdtempSync(join(tmpdir(), "fleet-lock-race-"));
        try {
          prepare(raced);
          expect(await race(raced), `round ${round}`).toEqual(exactlyOne);
          // The winner's release, and every racer's staging file and guard, leave nothing behind.
          expect(readdirSync(raced), `round ${round}`).toEqual([]);
        } finally {
          rmSync(raced, { recursive: true, force: true });
        }
      }
    },
    120_000,
  );
});
