import { expect } from "vitest";
import { type LeasedFleet, leasedFleet } from "./approval-fixtures.ts";
import { call, seedTenant, type Tenant } from "./harness.ts";

export const CANARY = "canary_value_5d1e8f0a77c2";
export const MASKED = "[secret:CANARY_TOKEN]";

/** Delivers the lease's credentials to its holder; answers the delivered body. */
export async function deliver(leased: LeasedFleet) {
  const delivered = await call("POST", `/v1/runners/me/leases/${leased.lease.lease_id}/credentials`, {
    token: leased.runner.token,
    body: { fencing_token: leased.lease.fencing_token },
  });
  expect(delivered.status, delivered.text).toBe(200);
  return delivered;
}

/** Replaces CANARY_TOKEN's value with `value`. */
export async function replaceCanary(owner: Tenant, value: string) {
  const replaced = await call("PUT", `/v1/workspaces/${owner.workspaceId}/secrets/CANARY_TOKEN`, {
    token: owner.apiKey,
    body: { data: { token: value } },
  });
  expect(replaced.status, replaced.text).toBe(200);
}

/** A leased fleet declaring CANARY_TOKEN, whose runner has (unless told otherwise) received its value. */
export async function canaryRun(fetch = true): Promise<{ owner: Tenant; leased: LeasedFleet }> {
  const owner = await seedTenant();
  const stored = await call("POST", `/v1/workspaces/${owner.workspaceId}/secrets`, {
    token: owner.apiKey,
    body: { name: "CANARY_TOKEN", data: { token: CANARY } },
  });
  expect(stored.status, stored.text).toBe(201);
  const leased = await leasedFleet(owner, { credentials: ["CANARY_TOKEN"] });
  if (fetch) expect((await deliver(leased)).text).toContain(CANARY);
  return { owner, leased };
}

export const fleetPath = (owner: Tenant, leased: LeasedFleet) =>
  `/v1/workspaces/${owner.workspaceId}/fleets/${leased.fleetId}`;
