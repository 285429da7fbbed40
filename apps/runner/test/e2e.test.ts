import { statSync } from "node:fs";
import { join } from "node:path";
import type { OutputOf } from "@fleet/contracts";
import type { approveApproval } from "@fleet/contracts/approvals/approve-approval";
import type { denyApproval } from "@fleet/contracts/approvals/deny-approval";
import type { listApprovals } from "@fleet/contracts/approvals/list-approvals";
import type { listMemories } from "@fleet/contracts/memories/list-memories";
import type { getRunner } from "@fleet/contracts/runners/get-runner";
import type { listSchedules } from "@fleet/contracts/schedules/list-schedules";
import { describe, expect, it } from "vitest";
import {
  api,
  expectNoSecrets,
  type Fleet,
  heldLease,
  installFleet,
  leasesOf,
  live,
  message,
  processed,
  type RunnerProcess,
  readEvent,
  startRunner,
  until,
  useApi,
} from "./harness.ts";

type Gate = OutputOf<typeof listApprovals>["items"][number];

/** The pending gate the fleet's runner opened for `action`, once it is in the inbox. */
function pendingGate(fleet: Fleet, action: string): Promise<Gate> {
  return until(`a gate for "${action}"`, async () => {
    const page = await api<OutputOf<typeof listApprovals>>(
      "GET",
      `/v1/workspaces/${live.tenant.workspace_id}/approvals?fleet_id=${fleet.fleetId}`,
      live.tenant.api_key,
    );
    expect(page.status).toBe(200);
    return page.body.items.find((gate) => gate.proposed_action === action);
  });
}

useApi();

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
      live.operatorToken,
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
      `/v1/workspaces/${live.tenant.workspace_id}/fleets/${fleet.fleetId}/memories`,
      live.tenant.api_key,
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
      `/v1/workspaces/${live.tenant.workspace_id}/fleets/${fleet.fleetId}/schedules`,
      live.tenant.api_key,
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
      `/v1/workspaces/${live.tenant.workspace_id}/approvals/${gate.gate_id}/approve`,
      live.tenant.api_key,
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
      `/v1/workspaces/${live.tenant.workspace_id}/approvals/${gate.gate_id}/deny`,
      live.tenant.api_key,
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
        live.operatorToken,
      );
      return view.body.liveness === "online" ? true : undefined;
    });
    const revoked = await api("PATCH", `/v1/fleets/runners/${runnerId}`, live.operatorToken, {
      status: "revoked",
    });
    expect(revoked.status).toBe(200);
    expect(await worker.exited).toBe(0);
    expect(worker.output.join("")).toContain("the runner token was refused");
  }, 60_000);
});
