import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DataDirLockedError, openDatabase, tenants } from "./index.ts";

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

  it("lets tools write through the holder's socket, taking turns, and loses no write", async () => {
    const write = async (i: number) => {
      const tool = await openDatabase(`pglite://${dir}`, { viaOwner: true });
      await tool.db
        .insert(tenants)
        .values({ id: `01a20000-0000-7000-8000-00000000000${i}`, name: `t${i}`, createdAt: i });
      await tool.close();
    };
    await Promise.all([0, 1, 2, 3, 4].map(write));
    const finished = waitFor("tenants=");
    holder.stdin.end();
    await finished;
    expect(output).toContain("tenants=5");
  });
});
