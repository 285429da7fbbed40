import postgres from "postgres";
import { describe, expect, it } from "vitest";
import { openDatabase } from "./index.ts";

const serverUrl = process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

async function reachable(): Promise<boolean> {
  const probe = postgres(serverUrl, { max: 1, connect_timeout: 2, onnotice: () => {} });
  try {
    await probe`select 1`;
    return true;
  } catch {
    return false;
  } finally {
    await probe.end({ timeout: 1 });
  }
}

const server = await reachable();
if (!server && process.env.CI === "true") throw new Error(`no PostgreSQL answers at ${serverUrl}`);

// postgres.js 3.4.9 wrote a buffered query to a socket its close had set to null, from a timer: an uncaught
// TypeError that ends the process, and a stale timer that left the connection unable to send again (its
// reconnect's startup message never went out: the database-faults test saw 503s after recovery).
// patches/postgres@3.4.9.patch settles such a write as CONNECTION_CLOSED; this is its regression test.
describe.runIf(server)("the patched PostgreSQL driver", () => {
  it("rejects a query on a connection whose server process ended, and throws nothing from a timer", async () => {
    const uncaught: unknown[] = [];
    const record = (error: unknown) => uncaught.push(error);
    process.on("uncaughtException", record);
    const sql = postgres(serverUrl, { max: 1, onnotice: () => {} });
    const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
    try {
      const reserved = await sql.reserve();
      const [row] = await reserved<{ pid: number }[]>`select pg_backend_pid() as pid`;
      await admin`select pg_terminate_backend(${row!.pid})`;
      await new Promise((resolve) => setTimeout(resolve, 200));
      const codes: unknown[] = [];
      for (let i = 0; i < 3; i++)
        await reserved`select 1`.then(
          () => codes.push("answered"),
          (error: { code?: unknown }) => codes.push(error.code),
        );
      expect(codes).toEqual(["CONNECTION_CLOSED", "CONNECTION_CLOSED", "CONNECTION_CLOSED"]);
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.off("uncaughtException", record);
      await sql.end({ timeout: 1 });
      await admin.end({ timeout: 1 });
    }
    expect(uncaught).toEqual([]);
  });
});

// docs/decisions/operations.md, "Running" and "No JIT": set by the server at connect, on every connection.
describe.runIf(server)("a connection of openDatabase", () => {
  it("runs with JIT off and the statement timeout asked for", async () => {
    const database = await openDatabase(serverUrl, { max: 1, statementTimeoutMs: 4321 });
    try {
      const [row] = await database.query<{ jit: string; timeout: string }>(
        "select current_setting('jit') as jit, current_setting('statement_timeout') as timeout",
      );
      expect(row).toEqual({ jit: "off", timeout: "4321ms" });
    } finally {
      await database.close();
    }
  });
});
