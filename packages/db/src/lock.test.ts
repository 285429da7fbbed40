import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DataDirLockedError, openDatabase } from "./index.ts";

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
