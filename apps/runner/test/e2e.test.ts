import { type ChildProcess, execFile, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import type { leaseSummary, OutputOf } from "@fleet/contracts";
import type { approveApproval } from "@fleet/contracts/approvals/approve-approval";
import type { denyApproval } from "@fleet/contracts/approvals/deny-approval";
import type { listApprovals } from "@fleet/contracts/approvals/list-approvals";
import type { getFleetEvent } from "@fleet/contracts/fleet-events/get-fleet-event";
import type { createPlatformLibrary } from "@fleet/contracts/fleet-libraries/create-platform-library";
import type { createFleet } from "@fleet/contracts/fleets/create-fleet";
import type { messageFleet } from "@fleet/contracts/fleets/message-fleet";
import type { listMemories } from "@fleet/contracts/memories/list-memories";
import type { getRunner } from "@fleet/contracts/runners/get-runner";
import type { listRunnerLeases } from "@fleet/contracts/runners/list-runner-leases";
import type { listSchedules } from "@fleet/contracts/schedules/list-schedules";
import { freePort } from "@fleet/testing/free-port";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { z } from "zod";

/**
 * The runner against a real API: the API process on a temporary PGlite directory in dev mode with
 * 1.5 s leases, seeded through fleetctl and the REST surface, and runner processes started, stopped and
 * killed the way a host would.
 */
const run = promisify(execFile);
const root = join(import.meta.dirname, "..", "..", "..");
const runnerDir = join(import.meta.dirname, "..");
const dir = mkdtempSync(join(tmpdir(), "fleet-runner-e2e-"));
const inherited = Object.fromEntries(
  Object.entries(process.env).filter(([name]) => !name.startsWith("FLEET_")),
);
const apiEnv = { ...inherited, DATABASE_URL: `pglite://${join(dir, "db")}`, LOG_LEVEL: "warn" };
const children: ChildProcess[] = [];
let baseUrl = "";
let operatorToken = "";
let tenant: { workspace_id: string; api_key: string };

async function fleetctl(...args: string[]): Promise<Record<string, string>> {
  const { stdout } = await run(
    process.execPath,
    ["--import", "tsx", "apps/api/src/cli/fleetctl.ts", ...args, "--json"],
    { cwd: root, env: apiEnv },
  );
  return JSON.parse(stdout);
}

async function api<T = Record<string, unknown>>(
  method: string,
  path: string,
  token: string,
  body?: unknown,
): Promise<{ status: number; body: T }> {
  const response = await fetch(`${baseUrl}${path}`, {
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

async function until<T>(what: string, probe: () => Promise<T | undefined>, seconds = 30): Promise<T> {
  const deadline = Date.now() + seconds * 1000;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

interface Fleet {
  fleetId: string;
  label: string;
}

/** A fleet of its own, leased only by runners carrying its label, so tests never take each other's work. */
async function installFleet(): Promise<Fleet> {
  const label = `e2e-${Math.random().toString(36).slice(2, 10)}`;
  const definition = [
    "---",
    `name: Echo ${label}`,
    "description: Answers every message with its text.",
    "requires:",
    "  runner_labels:",
    `    - ${label}`,
    "---",
    "Answer every message with its text.",
  ].join("\n");
  const entry = await api<OutputOf<typeof createPlatformLibrary>>(
    "POST",
    "/v1/admin/fleet-libraries",
    operatorToken,
    { definition },
  );
  expect(entry.status, JSON.stringify(entry.body)).toBe(201);
  const fleet = await api<OutputOf<typeof createFleet>>(
    "POST",
    `/v1/workspaces/${tenant.workspace_id}/fleets`,
    tenant.api_key,
    {
      platform_library_id: entry.body.id,
    },
  );
  expect(fleet.status, JSON.stringify(fleet.body)).toBe(201);
  return { fleetId: fleet.body.fleet_id, label };
}

async function message(fleet: Fleet, text: string): Promise<string> {
  const sent = await api<OutputOf<typeof messageFleet>>(
    "POST",
    `/v1/workspaces/${tenant.workspace_id}/fleets/${fleet.fleetId}/messages`,
    tenant.api_key,
    { message: text },
  );
  expect(sent.status).toBe(202);
  return sent.body.event_id;
}

type FleetEvent = OutputOf<typeof getFleetEvent>;

function readEvent(fleet: Fleet, eventId: string) {
  return api<FleetEvent>(
    "GET",
    `/v1/workspaces/${tenant.workspace_id}/fleets/${fleet.fleetId}/events/${eventId}`,
    tenant.api_key,
  );
}

function processed(fleet: Fleet, eventId: string, seconds = 30): Promise<FleetEvent> {
  return until(
    `event ${eventId} to be processed`,
    async () => {
      const event = await readEvent(fleet, eventId);
      return event.body.status === "received" ? undefined : event.body;
    },
    seconds,
  );
}

interface RunnerProcess {
  child: ChildProcess;
  output: string[];
  exited: Promise<number | null>;
  tokenFile: string;
  runnerId(): Promise<string>;
}

/** Starts a runner process that enrols itself (dev_none) for the fleet's label. */
function startRunner(host: string, fleet: Fleet, env: Record<string, string> = {}): RunnerProcess {
  const tokenFile = join(dir, "tokens", `${host}.json`);
  const child = spawn(process.execPath, ["--import", "tsx", "src/main.ts"], {
    cwd: runnerDir,
    env: {
      ...inherited,
      FLEET_API_URL: baseUrl,
      FLEET_OPERATOR_TOKEN: operatorToken,
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

type Gate = OutputOf<typeof listApprovals>["items"][number];

/** The pending gate the fleet's runner opened for `action`, once it is in the inbox. */
function pendingGate(fleet: Fleet, action: string): Promise<Gate> {
  return until(`a gate for "${action}"`, async () => {
    const page = await api<OutputOf<typeof listApprovals>>(
      "GET",
      `/v1/workspaces/${tenant.workspace_id}/approvals?fleet_id=${fleet.fleetId}`,
      tenant.api_key,
    );
    expect(page.status).toBe(200);
    return page.body.items.find((gate) => gate.proposed_action === action);
  });
}

type LeaseSummary = z.output<typeof leaseSummary>;

async function leasesOf(runnerId: string): Promise<LeaseSummary[]> {
  const page = await api<OutputOf<typeof listRunnerLeases>>(
    "GET",
    `/v1/fleets/runners/${runnerId}/leases`,
    operatorToken,
  );
  expect(page.status).toBe(200);
  return page.body.items;
}

function heldLease(runnerId: string, eventId: string): Promise<LeaseSummary> {
  return until("the runner to hold the lease", async () =>
    (await leasesOf(runnerId)).find((lease) => lease.event_id === eventId && lease.outcome === "running"),
  );
}

/** No credential ever reaches a runner's output. */
function expectNoSecrets(runner: RunnerProcess): void {
  const text = runner.output.join("");
  const token = JSON.parse(readFileSync(runner.tokenFile, "utf8")).runner_token as string;
  expect(text).not.toContain(token);
  expect(text).not.toContain(operatorToken);
  expect(text).not.toMatch(/agt_r[A-Za-z0-9_-]{8,}/);
}

beforeAll(async () => {
  const port = await freePort();
  baseUrl = `http://127.0.0.1:${port}`;
  const server = spawn(process.execPath, ["apps/api/scripts/start.mjs"], {
    cwd: root,
    env: { ...apiEnv, PORT: String(port), FLEET_DEV_MODE: "true", FLEET_LEASE_TTL_MS: "1500" },
    stdio: ["ignore", "ignore", "inherit"],
  });
  children.push(server);
  await until(
    "the API to start",
    async () =>
      (await fetch(`${baseUrl}/readyz`).then(
        (r) => r.ok,
        () => false,
      ))
        ? true
        : undefined,
    60,
  );
  tenant = (await fleetctl(
    "bootstrap",
    "--tenant",
    "Runner E2E",
    "--email",
    "owner@runner.test",
  )) as typeof tenant;
  // One person runs this workspace and approves the gates of the messages they send: the policy says so
  // (by default the person who caused a gate may not approve it).
  const policy = await api("PUT", `/v1/workspaces/${tenant.workspace_id}/approval-policy`, tenant.api_key, {
    rules: [],
    escalation_webhook_url: null,
    allow_self_approval: true,
  });
  expect(policy.status, JSON.stringify(policy.body)).toBe(200);
  operatorToken = (await fleetctl("operator", "--scopes", "runner:admin platform-library:write")).token!;
});

afterAll(() => {
  for (const child of children) if (child.exitCode === null) child.kill("SIGKILL");
  rmSync(dir, { recursive: true, force: true });
});

describe("the reference runner against a real API", () => {
  let fleet: Fleet;
  let runner: RunnerProcess;

  it("enrols itself, leases a message, answers it with echo, and reports its host's capabilities", async () => {
    fleet = await installFleet();
    const eventId = await message(fleet, "hello from the runner test");
    runner = startRunner("echo-host", fleet);
    const event = await processed(fleet, eventId);
    expect(event).toMatchObject({ status: "processed", response_text: "Echo: hello from the runner test" });

    expect(statSync(runner.tokenFile).mode & 0o777).toBe(0o600);
    const view = await api<Record<string, unknown>>(
      "GET",
      `/v1/fleets/runners/${await runner.runnerId()}`,
      operatorToken,
    );
    expect(view.body).toMatchObject({ host_id: "echo-host", degraded: false, status: "active" });
    expect(view.body.achievable).toMatchObject({ egress_enforcement: false });
  }, 60_000);

  it("writes the memories a message asks for", async () => {
    const eventId = await message(fleet, "remember: colour teal");
    expect((await processed(fleet, eventId)).response_text).toBe(
      "Echo: remember: colour teal\nRemembered colour.",
    );
    const memories = await api<OutputOf<typeof listMemories>>(
      "GET",
      `/v1/workspaces/${tenant.workspace_id}/fleets/${fleet.fleetId}/memories`,
      tenant.api_key,
    );
    expect(memories.body.items).toContainEqual(expect.objectContaining({ key: "colour", content: "teal" }));
  });

  it("creates the schedule a message asks for", async () => {
    const eventId = await message(fleet, "schedule: */5 * * * * once Look again later");
    const event = await processed(fleet, eventId);
    expect(event.status).toBe("processed");
    expect(event.response_text).toMatch(
      /Scheduled "Look again later" at \*\/5 \* \* \* \* \(UTC, once\): \S+/,
    );
    const schedules = await api<OutputOf<typeof listSchedules>>(
      "GET",
      `/v1/workspaces/${tenant.workspace_id}/fleets/${fleet.fleetId}/schedules`,
      tenant.api_key,
    );
    expect(schedules.body.items).toContainEqual(
      expect.objectContaining({
        cron: "*/5 * * * *",
        message: "Look again later",
        source: "fleet",
        once: true,
      }),
    );
  }, 60_000);

  it("asks for approval through a gate, keeps its lease while it waits, and answers once approved", async () => {
    const eventId = await message(fleet, "approve: deploy v2");
    const gate = await pendingGate(fleet, "deploy v2");
    expect(gate).toMatchObject({
      status: "pending",
      tool_name: "echo",
      action_name: "deploy",
      gate_kind: "approval",
      evidence: { message: "approve: deploy v2" },
      blast_radius: "none (demo)",
    });
    // Two lease TTLs (1.5 s) pass while the gate is pending: the runner renews through its wait.
    await new Promise((resolve) => setTimeout(resolve, 3_500));
    expect((await readEvent(fleet, eventId)).body.status).toBe("received");

    const approved = await api<OutputOf<typeof approveApproval>>(
      "POST",
      `/v1/workspaces/${tenant.workspace_id}/approvals/${gate.gate_id}/approve`,
      tenant.api_key,
      {},
    );
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    expect(approved.body.resolved_by).toMatch(/^api_key:/);
    const event = await processed(fleet, eventId);
    expect(event).toMatchObject({
      status: "processed",
      response_text: `Echo: approve: deploy v2\nApproved by ${approved.body.resolved_by}: deploy v2`,
    });
    const leases = (await leasesOf(await runner.runnerId())).filter((lease) => lease.event_id === eventId);
    expect(leases).toEqual([expect.objectContaining({ kind: "fresh", outcome: "succeeded" })]);
  }, 60_000);

  it("reports a denied approval as fleet_error approval_denied", async () => {
    const eventId = await message(fleet, "approve: drop the staging database");
    const gate = await pendingGate(fleet, "drop the staging database");
    const denied = await api<OutputOf<typeof denyApproval>>(
      "POST",
      `/v1/workspaces/${tenant.workspace_id}/approvals/${gate.gate_id}/deny`,
      tenant.api_key,
      { reason: "not today" },
    );
    expect(denied.status, JSON.stringify(denied.body)).toBe(200);
    const event = await processed(fleet, eventId);
    expect(event).toMatchObject({
      status: "fleet_error",
      failure_label: "approval_denied",
      failure_detail: `The approval of "drop the staging database" was denied by ${denied.body.resolved_by}: not today`,
    });
  }, 60_000);

  it("stops on SIGTERM with exit code 0, and never logs a credential", async () => {
    runner.child.kill("SIGTERM");
    expect(await runner.exited).toBe(0);
    expectNoSecrets(runner);
  });

  it("loses nothing when killed with SIGKILL mid-lease: a second runner reclaims the work", async () => {
    const crashing = await installFleet();
    const eventId = await message(crashing, "survive a crash");
    const first = startRunner("doomed-host", crashing, { FLEET_RUNNER_ECHO_DELAY_MS: "600000" });
    const firstId = await first.runnerId();
    const lost = await heldLease(firstId, eventId);
    expect(lost.kind).toBe("fresh");
    first.child.kill("SIGKILL");
    await first.exited;

    const second = startRunner("rescue-host", crashing);
    const event = await processed(crashing, eventId, 45);
    expect(event).toMatchObject({ status: "processed", response_text: "Echo: survive a crash" });

    const reclaimed = (await leasesOf(await second.runnerId())).find((lease) => lease.event_id === eventId);
    expect(reclaimed).toMatchObject({ kind: "reclaim", outcome: "succeeded" });
    expect(reclaimed!.fencing_token).toBeGreaterThan(lost.fencing_token);
    expect((await leasesOf(firstId)).find((lease) => lease.lease_id === lost.lease_id)?.outcome).toBe(
      "expired",
    );
    second.child.kill("SIGTERM");
    expect(await second.exited).toBe(0);
  }, 90_000);

  it("on SIGTERM finishes the lease it holds before exiting", async () => {
    const patient = await installFleet();
    const eventId = await message(patient, "finish me");
    const worker = startRunner("patient-host", patient, { FLEET_RUNNER_ECHO_DELAY_MS: "2000" });
    await heldLease(await worker.runnerId(), eventId);
    worker.child.kill("SIGTERM");
    expect(await worker.exited).toBe(0);
    expect((await readEvent(patient, eventId)).body).toMatchObject({
      status: "processed",
      response_text: "Echo: finish me",
    });
  }, 60_000);

  it("runs an executor module named by FLEET_RUNNER_EXECUTOR in place of echo", async () => {
    const custom = await installFleet();
    const eventId = await message(custom, "are you there");
    const shouting = startRunner("shout-host", custom, {
      FLEET_RUNNER_EXECUTOR: join(import.meta.dirname, "fixtures", "executors", "shout.ts"),
    });
    const event = await processed(custom, eventId);
    expect(event).toMatchObject({ status: "processed", response_text: "SHOUT: ARE YOU THERE" });
    const lease = (await leasesOf(await shouting.runnerId())).find((item) => item.event_id === eventId);
    expect(lease).toMatchObject({ outcome: "succeeded", model: "shout-1" });
    shouting.child.kill("SIGTERM");
    expect(await shouting.exited).toBe(0);
  }, 60_000);

  it("refuses to start with an executor module that exports no createExecutor", async () => {
    const broken = startRunner("broken-executor-host", await installFleet(), {
      FLEET_RUNNER_EXECUTOR: join(import.meta.dirname, "fixtures", "executors", "no-factory.ts"),
    });
    expect(await broken.exited).not.toBe(0);
    expect(broken.output.join("")).toContain("does not export createExecutor");
  }, 60_000);

  it("exits cleanly when an operator revokes it", async () => {
    const idle = await installFleet();
    const worker = startRunner("revoked-host", idle);
    const runnerId = await worker.runnerId();
    await until("the runner to be online", async () => {
      const view = await api<OutputOf<typeof getRunner>>(
        "GET",
        `/v1/fleets/runners/${runnerId}`,
        operatorToken,
      );
      return view.body.liveness === "online" ? true : undefined;
    });
    const revoked = await api("PATCH", `/v1/fleets/runners/${runnerId}`, operatorToken, {
      status: "revoked",
    });
    expect(revoked.status).toBe(200);
    expect(await worker.exited).toBe(0);
    expect(worker.output.join("")).toContain("the runner token was refused");
  }, 60_000);
});
