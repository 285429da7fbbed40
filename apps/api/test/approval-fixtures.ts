import { randomUUID } from "node:crypto";
import type { ApprovalGate } from "@fleet/contracts";
import { expect } from "vitest";
import {
  installFromEntry,
  labelledFleet,
  messageFleet,
  seedLibraryEntry,
  uniqueLabel,
} from "./fleet-fixtures.ts";
import { call, callAt, seedMember, type Tenant } from "./harness.ts";
import { type EnrolledRunner, type HeldLease, leaseFleet } from "./runner-fixtures.ts";

export type RunnerGate = ApprovalGate & {
  outcome: string | null;
  approved_action: string | null;
  failure_label: string | null;
};

/** A fleet of the tenant's, leased by a runner of its own: what opening gates needs. */
export interface LeasedFleet {
  fleetId: string;
  runner: EnrolledRunner;
  lease: HeldLease;
}

/** A fleet of the tenant's with a waiting message, leased by a runner of its own (`leaseFleet`). */
export async function leasedFleet(
  owner: Tenant,
  options: { credentials?: string[]; requester?: string } = {},
): Promise<LeasedFleet> {
  const label = uniqueLabel();
  const fleetId =
    options.credentials === undefined
      ? await labelledFleet(owner, label)
      : await installFromEntry(
          owner,
          await seedLibraryEntry({ credentials: options.credentials, runnerLabels: [label] }),
        );
  // Sent by a member of its own, so the owner (and the people a test seeds) may approve the gates it
  // opens: the person who caused a gate does not approve it by default.
  const requester = options.requester ?? (await seedMember(owner, ["fleet:write"])).token;
  await messageFleet(owner, fleetId, "needs an approval", requester);
  const { runner, lease } = await leaseFleet(label, fleetId);
  return { fleetId, runner, lease };
}

export function gateBody(lease: HeldLease, extra: Record<string, unknown> = {}) {
  return {
    fencing_token: lease.fencing_token,
    action_id: randomUUID(),
    tool_name: "github",
    action_name: "merge_pull_request",
    gate_kind: "repair",
    proposed_action: "merge PR #42 into main",
    evidence: { checks: "green", diff_lines: 12 },
    blast_radius: "one repository, main branch",
    detail: "The fix for the failing deploy.",
    ...extra,
  };
}

/** Opens a gate through the runner route and answers it. */
export async function openGate(leased: LeasedFleet, extra: Record<string, unknown> = {}) {
  return call<RunnerGate>("POST", `/v1/runners/me/leases/${leased.lease.lease_id}/gates`, {
    token: leased.runner.token,
    body: gateBody(leased.lease, extra),
  });
}

/** A pending gate in the tenant's workspace. */
export async function gateIn(owner: Tenant): Promise<Record<string, string>> {
  const opened = await openGate(await leasedFleet(owner));
  expect(opened.status, opened.text).toBe(201);
  return { workspace_id: owner.workspaceId, gate_id: opened.body.gate_id };
}

/** Answers a gate in the owner's workspace with the owner's API key. */
export function answerGate(
  owner: Tenant,
  gateId: string,
  verb: "approve" | "deny",
  body: Record<string, unknown> = {},
) {
  return call<Record<string, unknown>>(
    "POST",
    `/v1/workspaces/${owner.workspaceId}/approvals/${gateId}/${verb}`,
    {
      token: owner.apiKey,
      body,
    },
  );
}

/** A gate as the owner's inbox shows it. */
export function readGate(owner: Tenant, gateId: string) {
  return call<RunnerGate & Record<string, unknown>>(
    "GET",
    `/v1/workspaces/${owner.workspaceId}/approvals/${gateId}`,
    { token: owner.apiKey },
  );
}

/** The runner's read of its gate, waiting up to `waitMs` for an answer; through another instance if given. */
export function waitFor(leased: LeasedFleet, gateId: string, waitMs: number, baseUrl?: string) {
  const path = `/v1/runners/me/leases/${leased.lease.lease_id}/gates/${gateId}?wait_ms=${waitMs}`;
  const options = { token: leased.runner.token };
  return baseUrl === undefined
    ? call<RunnerGate>("GET", path, options)
    : callAt<RunnerGate>(baseUrl, "GET", path, options);
}

/** Opens `count` gates through the runner route, each with `extra`, and answers their ids in order. */
export async function openMany(leased: LeasedFleet, count: number, extra: Record<string, unknown> = {}) {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const opened = await openGate(leased, extra);
    expect(opened.status, opened.text).toBe(201);
    ids.push(opened.body.gate_id);
  }
  return ids;
}
