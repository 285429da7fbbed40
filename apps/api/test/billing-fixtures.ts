import type { OutputOf } from "@fleet/contracts";
import type { getBilling } from "@fleet/contracts/billing/get-billing";
import type { listCharges } from "@fleet/contracts/billing/list-charges";
import type { updateBudget } from "@fleet/contracts/billing/update-budget";
import type { reportUsage } from "@fleet/contracts/leases/report-usage";
import { expect } from "vitest";
import { labelledFleet, messageFleet, uniqueLabel } from "./fleet-fixtures.ts";
import { call, type Tenant } from "./harness.ts";
import { acquire, type EnrolledRunner, enrollRunner, type HeldLease } from "./runner-fixtures.ts";

type Billing = OutputOf<typeof getBilling>;
type ChargePage = OutputOf<typeof listCharges>;
export type Budget = OutputOf<typeof updateBudget>;
type Usage = OutputOf<typeof reportUsage>;

/** A fleet of the tenant's own, a runner for it, and `messages` waiting events. */
export async function workingFleet(tenant: Tenant, messages = 1) {
  const label = uniqueLabel();
  const fleetId = await labelledFleet(tenant, label);
  for (let i = 0; i < messages; i++) await messageFleet(tenant, fleetId, `job ${i}`);
  const runner = await enrollRunner({ labels: [label] });
  return { fleetId, runner };
}

export async function leaseOne(runner: EnrolledRunner): Promise<HeldLease> {
  const answer = await acquire(runner);
  expect(answer.status, answer.text).toBe(200);
  expect(answer.body.lease, "a lease").not.toBeNull();
  return answer.body.lease!;
}

export const budgetPath = (tenant: Tenant, fleetId: string) =>
  `/v1/workspaces/${tenant.workspaceId}/fleets/${fleetId}/budget`;

export async function setBudget(tenant: Tenant, fleetId: string, body: Record<string, unknown>) {
  const set = await call<Budget>("PATCH", budgetPath(tenant, fleetId), { token: tenant.apiKey, body });
  expect(set.status, set.text).toBe(200);
  return set.body;
}

export function usage(runner: EnrolledRunner, lease: HeldLease, body: Record<string, unknown>) {
  return call<Usage & { error_code?: string }>("POST", `/v1/runners/me/leases/${lease.lease_id}/usage`, {
    token: runner.token,
    body: { fencing_token: lease.fencing_token, ...body },
  });
}

export const billingOf = (tenant: Tenant) =>
  call<Billing>("GET", "/v1/tenants/me/billing", { token: tenant.apiKey });
export const chargesOf = (tenant: Tenant, query = "") =>
  call<ChargePage & { error_code?: string }>("GET", `/v1/tenants/me/billing/charges${query}`, {
    token: tenant.apiKey,
  });
