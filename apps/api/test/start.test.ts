import { type ChildProcess, execFile, spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { freePort } from "@fleet/testing/free-port";
import { afterAll, describe, expect, it } from "vitest";
import { databaseKind } from "./harness.ts";

const run = promisify(execFile);
const apiDir = join(import.meta.dirname, "..");
const dir = mkdtempSync(join(tmpdir(), "fleet-start-"));

afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Polls until `attempt` gives a value; fails at once, with the server's stderr, if the server exits. */
async function poll<T>(
  server: ChildProcess,
  stderr: string[],
  what: string,
  attempt: () => Promise<T | undefined>,
  seconds = 60,
): Promise<T> {
  const deadline = Date.now() + seconds * 1000;
  for (;;) {
    const value = await attempt().catch(() => undefined);
    if (value !== undefined) return value;
    const why = server.exitCode !== null ? `the server exited with ${server.exitCode}` : null;
    if (why !== null || Date.now() > deadline) {
      throw new Error(`${what} did not happen (${why ?? `${seconds} s`}); stderr:\n${stderr.join("")}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const timeout = () => AbortSignal.timeout(5_000);

/** Environment for `pnpm start:api` on the embedded directory `db` under the test's directory. */
function envFor(db: string): NodeJS.ProcessEnv {
  return { ...process.env, DATABASE_URL: `pglite://${join(dir, db)}`, LOG_LEVEL: "warn" };
}

/** Runs `pnpm start:api`'s script (the bundled API) on `port`, collecting its stderr. */
function start(env: NodeJS.ProcessEnv, port: number) {
  const server = spawn(process.execPath, ["scripts/start.mjs"], {
    cwd: apiDir,
    env: { ...env, PORT: String(port) },
    stdio: ["ignore", "ignore", "pipe"],
  });
  const stderr: string[] = [];
  server.stderr!.on("data", (chunk: Buffer) => stderr.push(chunk.toString()));
  const exited = new Promise<number | null>((resolve) => server.once("exit", resolve));
  return { server, stderr, exited };
}

/**
 * `pnpm start:api` (scripts/start.mjs: the bundled API) on a fresh embedded directory, whose creation
 * takes seconds: the process answers liveness at once, readiness only once it serves, and a request
 * that arrives meanwhile waits and is answered instead of refused.
 */
describe.runIf(databaseKind === "pglite")("starting the API", () => {
  it("answers /healthz while starting, /readyz 503 until ready, and serves the requests that waited", async () => {
    const port = await freePort();
    const baseUrl = `http://127.0.0.1:${port}`;
    const env = envFor("db");
    const { server, stderr, exited } = start(env, port);
    try {
      const health = await poll(server, stderr, "/healthz answering", async () => {
        const response = await fetch(`${baseUrl}/healthz`, {
          headers: { "x-request-id": "start-1" },
          signal: timeout(),
        });
        return response.ok ? response : undefined;
      });
      // The server's own id, never the caller's.
      expect(health.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
      expect(await health.json()).toMatchObject({ status: "ok" });

      const notReady = await fetch(`${baseUrl}/readyz`);
      expect(notReady.status).toBe(503);
      expect(notReady.headers.get("content-type")).toContain("application/problem+json");
      const problem = (await notReady.json()) as Record<string, unknown>;
      expect(problem).toMatchObject({ error_code: "UZ-INTERNAL-002", detail: "The service is starting." });
      expect(problem.request_id).toBe(notReady.headers.get("x-request-id"));

      // Sent while the database is still being created: answered once the routes serve, not refused.
      const waited = fetch(`${baseUrl}/v1/users/me`);
      const ready = await poll(server, stderr, "/readyz answering 200", async () => {
        const response = await fetch(`${baseUrl}/readyz`, { signal: timeout() });
        return response.ok ? response : undefined;
      });
      expect(await ready.json()).toMatchObject({ status: "ready" });
      const answer = await waited;
      expect(answer.status).toBe(401);
      expect(answer.headers.get("x-request-id")).toBeTruthy();
      expect((await answer.json()) as Record<string, unknown>).toMatchObject({ error_code: "UZ-AUTH-001" });

      // The bundle finds the files it ships beside its sources: the demo fleet of the first run.
      const { stdout } = await run(
        process.execPath,
        ["--import", "tsx", "src/cli/fleetctl.ts", "first-run", "--json"],
        { cwd: apiDir, env },
      );
      const first = JSON.parse(stdout) as { created: { api_key: string } | null };
      expect(first.created).not.toBeNull();
      const auth = { authorization: `Bearer ${first.created!.api_key}` };
      const workspaces = await fetch(`${baseUrl}/v1/tenants/me/workspaces`, { headers: auth });
      const [workspace] = ((await workspaces.json()) as { items: { id: string }[] }).items;
      const library = await fetch(`${baseUrl}/v1/workspaces/${workspace!.id}/fleet-libraries`, {
        headers: auth,
      });
      expect(library.status).toBe(200);
      const entries = ((await library.json()) as { items: { name: string }[] }).items;
      expect(entries.map((entry) => entry.name)).toContain("Echo");
    } finally {
      server.kill("SIGTERM");
    }
    expect(await exited).toBe(0);
  }, 120_000);

  it("stops a second start on the same directory with the lock's message, on another port or the same", async () => {
    const env = envFor("held");
    const port = await freePort();
    const first = start(env, port);
    try {
      await poll(first.server, first.stderr, "the lock taken", async () =>
        existsSync(join(dir, "held", "fleet.lock")) ? true : undefined,
      );
      const held = join(dir, "held");
      const message = `fleet-api: the embedded database at ${held} is in use by process ${first.server.pid} (lock file ${join(held, "fleet.lock")}); stop that process, or point DATABASE_URL at another directory`;
      // The same port is `pnpm start:api` twice with the defaults: the lock is checked before listening.
      for (const secondPort of [await freePort(), port]) {
        const second = start(env, secondPort);
        expect(await second.exited).toBe(1);
        expect(second.stderr.join("").trim()).toBe(message); // one line: no stack trace
      }
    } finally {
      first.server.kill("SIGKILL");
      await first.exited;
    }
  }, 120_000);

  it("stops a start whose port is taken with a line naming the port and PORT", async () => {
    const port = await freePort();
    const taken = await new Promise<Server>((resolve) => {
      const blocker = createServer().listen(port, "127.0.0.1", () => resolve(blocker));
    });
    try {
      const second = start(envFor("port-taken"), port);
      expect(await second.exited).toBe(1);
      expect(second.stderr.join("").trim()).toBe(
        `fleet-api: port ${port} on 127.0.0.1 is already in use; stop what listens there, or set PORT to a free port`,
      );
    } finally {
      taken.close();
    }
  }, 60_000);
});
