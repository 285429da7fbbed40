import { auditEvents, eq } from "@fleet/db";
import { expect } from "vitest";
import { type LeasedFleet, openGate, type RunnerGate } from "./approval-fixtures.ts";
import { call, seedMember, type Tenant, testApi } from "./harness.ts";

export type Body = Record<string, unknown>;
export type Person = { userId: string; token: string };

export const RESOLVER = ["approval:resolve", "approval:read"];

export function policyPath(owner: Tenant) {
  return `/v1/workspaces/${owner.workspaceId}/approval-policy`;
}

export function putPolicy(owner: Tenant, body: unknown, token = owner.apiKey) {
  return call<Body>("PUT", policyPath(owner), { token, body });
}

/** Answers a gate in the owner's workspace with `token`: a named approver's, or the owner's key. */
export function answerAs(owner: Tenant, token: string, gateId: string, verb: string, body: Body = {}) {
  return call<Body>("POST", `/v1/workspaces/${owner.workspaceId}/approvals/${gateId}/${verb}`, {
    token,
    body,
  });
}

/** A rule `first` answers, escalated to `backup` too at a quarter of its 8 s timeout. */
export function escalatingRule(first: Person, backup: Person) {
  return {
    name: "escalating",
    match: {},
    approvers: [first.userId],
    timeout_ms: 8_000,
    escalate_at_fraction: 0.25,
    escalation_approvers: [backup.userId],
  };
}

export async function people(owner: Tenant, count: number): Promise<Person[]> {
  return Promise.all(Array.from({ length: count }, () => seedMember(owner, RESOLVER)));
}

export async function opened(leased: LeasedFleet, extra: Body = {}): Promise<RunnerGate> {
  const gate = await openGate(leased, extra);
  expect(gate.status, gate.text).toBe(201);
  return gate.body;
}

export async function auditActions(gateOrTarget: string): Promise<string[]> {
  const api = await testApi();
  const rows = await api.database.db
    .select()
    .from(auditEvents)
    .where(eq(auditEvents.target, gateOrTarget))
    .orderBy(auditEvents.at, auditEvents.id);
  return rows.map((row) => row.action);
}
