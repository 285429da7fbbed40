import { type ChildProcess, execFile, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import type { leaseSummary, OutputOf } from "@fleet/contracts";
import type { getFleetEvent } from "@fleet/contracts/fleet-events/get-fleet-event";
import type { createPlatformLibrary } from "@fleet/contracts/fleet-libraries/create-platform-library";
import type { createFleet } from "@fleet/contracts/fleets/create-fleet";
import type { messageFleet } from "@fleet/contracts/fleets/message-fleet";
import type { listRunnerLeases } from "@fleet/contracts/runners/list-runner-leases";
import { openDatabase } from "@fleet/db";
import { freePort } from "@fleet/testing/free-port";
import { afterAll, beforeAll, expect } from "vitest";
import type { z } from "zod";

/**
 * The runner against a real API: the API process on a temporary PGlite directory in dev mode with
 * 1.5 s leases, seeded through fleetctl and the REST surface, and runner processes started, stopped and
 * killed the way a host would. A test file calls `useApi()` once, then reads `live`.
 */
const run = promisify(execFile);
const root = join(import.meta.dirname, "..", "..", "..");
const runnerDir = join(import.meta.dirname, "..");
const dir = mkdtempSync(join(tmpdir(), "fleet-runner-e2e-"));
const inherited = Object.fromEntries(
  Object.entries(process.env).filter(([name]) => !name.startsWith("FLEET_")),
);
const apiEnv: Record<string, string | undefined> = {
  ...inherited,
  DATABASE_URL: `pglite://${join(dir, "db")}`,
  LOG_LEVEL: "warn",
};
/** Set (e.g. `postgres://postgres@127.0.0.1:5432/postgres`): the API runs on a fresh database of that server. */
const postgresServer = process.env.TEST_DATABASE_URL;
const children: ChildProcess[] = [];

/** The API this file's tests run against, once `useApi`'s hooks have run. */
export const live = {
  baseUrl: "",
  /** runner:admin, platform-library:write and model:write. */
  operatorToken: "",
  tenant: { workspace_id: "", api_key: "" },
};

async function fleetctl(...args: string[]): Promise<Record<string, string>> {
  const { stdout } = await run(
    process.execPath,
    ["--import", "tsx", "apps/api/src/cli/fleetctl.ts", ...args, "--json"],
    { cwd: root, env: apiEnv },
  );
  return JSON.parse(stdout);
}

export async function api<T = Record<string, unknown>>(
  method: string,
  path: string,
  token: string,
  body?: unknown,
): Promise<{ status: number; body: T }> {
  const response = await fetch(`${live.baseUrl}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: (text === "" ? {} : JSON.parse(text)) as T };
}

export async function until<T>(what: string, probe: () => Promise<T | undefined>, seconds = 30): Promise<T> {
  const deadline = Date.now() + seconds * 1000;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** Starts the API (with `env` added, e.g. a fake vendor's) and seeds a tenant; stops everything after. */
export function useApi(env: () => Record<string, string> = () => ({})): void {
  let dropDatabase = async () => {};
  beforeAll(async () => {
    if (postgresServer) {
      const created = await freshPostgres(postgresServer);
      apiEnv.DATABASE_URL = created.url;
      // The embedded default keeps a master key beside its data; a PostgreSQL setup is given one.
      apiEnv.FLEET_MASTER_KEY = randomBytes(32).toString("base64");
      dropDatabase = created.drop;
    }
    const port = await freePort();
    live.baseUrl = `http://127.0.0.1:${port}`;
    const server = spawn(process.execPath, ["apps/api/scripts/start.mjs"], {
      cwd: root,
      env: { ...apiEnv, ...env(), PORT: String(port), FLEET_DEV_MODE: "true", FLEET_LEASE_TTL_MS: "1500" },
      stdio: ["ignore", "ignore", "inherit"],
    });
    children.push(server);
    await until(
      "the API to start",
      async () =>
        (await fetch(`${live.baseUrl}/readyz`).then(
          (r) => r.ok,
          () => false,
        ))
          ? true
          : undefined,
      60,
    );
    live.tenant = (await fleetctl(
      "bootstrap",
      "--tenant",
      "Runner E2E",
      "--email",
      "owner@runner.test",
    )) as typeof live.tenant;
    // One person runs this workspace and approves the gates of the messages they send: the policy says so
    // (by default the person who caused a gate may not approve it).
    const policy = await api(
      "PUT",
      `/v1/workspaces/${live.tenant.workspace_id}/approval-policy`,
      live.tenant.api_key,
      { rules: [], escalation_webhook_url: null, allow_self_approval: true },
    );
    expect(policy.status, JSON.stringify(policy.body)).toBe(200);
    live.operatorToken = (
      await fleetctl("operator", "--scopes", "runner:admin platform-library:write model:write")
    ).token!;
  });
  afterAll(async () => {
    // Killed before the database is dropped; a child ended by a signal has no exit code, only a signalCode.
    const running = children.filter((child) => child.exitCode === null && child.signalCode === null);
    const exits = running.map((child) => new Promise((resolve) => child.once("exit", resolve)));
    for (const child of running) child.kill("SIGKILL");
    await Promise.all(exits);
    await dropDatabase();
    rmSync(dir, { recursive: true, force: true });
  });
}

/** An empty database of its own on the server (the API migrates it as it starts), dropped after. */
async function freshPostgres(serverUrl: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `fleet_runner_${process.pid}_${Date.now()}`;
  // Creating and dropping a database may outlast a statement timeout on a busy machine.
  const admin = await openDatabase(serverUrl, { max: 1, statementTimeoutMs: 120_000 });
  await admin.query(`create database ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.close();
    },
  };
}

export interface Fleet {
  fleetId: string;
  label: string;
}

/**
 * A fleet of its own, leased only by runners carrying its label, so tests never take each other's work.
 * `requires` adds lines under `requires:` (indented two spaces); `frontMatter` adds top-level lines (e.g.
 * `agent:`); `instructions` is the definition's body.
 */
export async function installFleet(
  options: { requires?: string[]; frontMatter?: string[]; instructions?: string } = {},
): Promise<Fleet> {
  const label = `e2e-${Math.random().toString(36).slice(2, 10)}`;
  const definition = [
    "---",
    `name: Echo ${label}`,
    "description: Answers every message with its text.",
    ...(options.frontMatter ?? []),
    "requires:",
    "  runner_labels:",
    `    - ${label}`,
    ...(options.requires ?? []).map((line) => `  ${line}`),
    "---",
    options.instructions ?? "Answer every message with its text.",
  ].join("\n");
  return installDefinition(definition, label);
}

/** Onboards a definition to the platform library and installs it in the tenant's workspace. */
export async function installDefinition(definition: string, label: string): Promise<Fleet> {
  const entry = await api<OutputOf<typeof createPlatformLibrary>>(
    "POST",
    "/v1/admin/fleet-libraries",
    live.operatorToken,
    { definition },
  );
  expect(entry.status, JSON.stringify(entry.body)).toBe(201);
  const fleet = await api<OutputOf<typeof createFleet>>(
    "POST",
    `/v1/workspaces/${live.tenant.workspace_id}/fleets`,
    live.tenant.api_key,
    { platform_library_id: entry.body.id },
  );
  expect(fleet.status, JSON.stringify(fleet.body)).toBe(201);
  return { fleetId: fleet.body.fleet_id, label };
}

export async function message(fleet: Fleet, text: string): Promise<string> {
  const sent = await api<OutputOf<typeof messageFleet>>(
    "POST",
    `/v1/workspaces/${live.tenant.workspace_id}/fleets/${fleet.fleetId}/messages`,
    live.tenant.api_key,
    { message: text },
  );
  expect(sent.status).toBe(202);
  return sent.body.event_id;
}

export type FleetEvent = OutputOf<typeof getFleetEvent>;

export function readEvent(fleet: Fleet, eventId: string) {
  return api<FleetEvent>(
    "GET",
    `/v1/workspaces/${live.tenant.workspace_id}/fleets/${fleet.fleetId}/events/${eventId}`,
    live.tenant.api_key,
  );
}

export function processed(fleet: Fleet, eventId: string, seconds = 30): Promise<FleetEvent> {
  return until(
    `event ${eventId} to be processed`,
    async () => {
      const event = await readEvent(fleet, eventId);
      return event.body.status === "received" ? undefined : event.body;
    },
    seconds,
  );
}

export interface RunnerProcess {
  child: ChildProcess;
  output: string[];
  exited: Promise<number | null>;
  tokenFile: string;
  runnerId(): Promise<string>;
}

/** Starts a runner process that enrols itself (dev_none) for the fleet's label. */
export function startRunner(host: string, fleet: Fleet, env: Record<string, string> = {}): RunnerProcess {
  const tokenFile = join(dir, "tokens", `${host}.json`);
  const child = spawn(process.execPath, ["--import", "tsx", "src/main.ts"], {
    cwd: runnerDir,
    env: {
      ...inherited,
      FLEET_API_URL: live.baseUrl,
      FLEET_OPERATOR_TOKEN: live.operatorToken,
      FLEET_RUNNER_HOST_ID: host,
      FLEET_RUNNER_TOKEN_FILE: tokenFile,
      FLEET_RUNNER_SANDBOX_TIER: "dev_none",
      FLEET_RUNNER_LABELS: fleet.label,
      FLEET_RUNNER_HEARTBEAT_MS: "500",
      FLEET_RUNNER_WAIT_MS: "5000",
      FLEET_RUNNER_LOG_LEVEL: "debug",
      ...env,
    },
  });
  children.push(child);
  const output: string[] = [];
  child.stdout!.on("data", (chunk: Buffer) => output.push(chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => output.push(chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  const runnerId = () =>
    until(`${host} to enrol`, async () => {
      try {
        return (JSON.parse(readFileSync(tokenFile, "utf8")) as { runner_id: string }).runner_id;
      } catch {
        return undefined;
      }
    });
  return { child, output, exited, tokenFile, runnerId };
}

export type LeaseSummary = z.output<typeof leaseSummary>;

export async function leasesOf(runnerId: string): Promise<LeaseSummary[]> {
  const page = await api<OutputOf<typeof listRunnerLeases>>(
    "GET",
    `/v1/fleets/runners/${runnerId}/leases`,
    live.operatorToken,
  );
  expect(page.status).toBe(200);
  return page.body.items;
}

export function heldLease(runnerId: string, eventId: string): Promise<LeaseSummary> {
  return until("the runner to hold the lease", async () =>
    (await leasesOf(runnerId)).find((lease) => lease.event_id === eventId && lease.outcome === "running"),
  );
}

/** No credential ever reaches a runner's output. */
export function expectNoSecrets(runner: RunnerProcess): void {
  const text = runner.output.join("");
  const token = JSON.parse(readFileSync(runner.tokenFile, "utf8")).runner_token as string;
  expect(text).not.toContain(token);
  expect(text).not.toContain(live.operatorToken);
  expect(text).not.toMatch(/agt_r[A-Za-z0-9_-]{8,}/);
}
