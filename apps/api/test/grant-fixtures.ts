import type { OutputOf } from "@fleet/contracts";
import type { listIntegrationGrants } from "@fleet/contracts/integration-grants/list-integration-grants";
import type { requestIntegrationGrant } from "@fleet/contracts/integration-grants/request-integration-grant";
import type { rotateWebhookSecret } from "@fleet/contracts/webhooks/rotate-webhook-secret";
import { approvalGates, auditEvents, eq, integrationGrants, webhookNonces } from "@fleet/db";
import { expect } from "vitest";
import { sign } from "../src/services/webhooks/signature.ts";
import { installFleet } from "./fleet-fixtures.ts";
import { call, seedMember, seedTenant, type Tenant, testApi } from "./harness.ts";

export type GrantRequestAnswer = OutputOf<typeof requestIntegrationGrant>;
export type GrantPage = OutputOf<typeof listIntegrationGrants>;
export type Grant = GrantPage["items"][number];

/**
 * Asks for the fleet's use of `service` through the person route, by default as a member of its own, so
 * the owner may approve the gate it opens (the person who caused a gate does not approve it by default).
 */
export async function requestGrant(
  owner: Tenant,
  fleetId: string,
  service = "github",
  reason = "Open pull requests.",
  token?: string,
) {
  return call<GrantRequestAnswer>(
    "POST",
    `/v1/workspaces/${owner.workspaceId}/fleets/${fleetId}/integration-requests`,
    { token: token ?? (await seedMember(owner, ["fleet:write"])).token, body: { service, reason } },
  );
}

/** A fleet of the owner's with a pending grant: what the security suite's fixtures need. */
export async function grantIn(owner: Tenant): Promise<Record<string, string>> {
  const fleetId = await installFleet(owner);
  const requested = await requestGrant(owner, fleetId);
  expect(requested.status, requested.text).toBe(201);
  return { workspace_id: owner.workspaceId, fleet_id: fleetId, grant_id: requested.body.grant_id };
}

export async function listGrants(owner: Tenant, fleetId: string, query = "") {
  return call<GrantPage>(
    "GET",
    `/v1/workspaces/${owner.workspaceId}/fleets/${fleetId}/integration-grants${query}`,
    { token: owner.apiKey },
  );
}

/** Revokes a grant through the person route, with the owner's API key unless `token` is given. */
export function revokeGrant(owner: Tenant, fleetId: string, grantId: string, token = owner.apiKey) {
  return call<Grant & { error_code?: string }>(
    "DELETE",
    `/v1/workspaces/${owner.workspaceId}/fleets/${fleetId}/integration-grants/${grantId}`,
    { token },
  );
}

/** The grant as the fleet's list shows it. */
export async function grantOf(owner: Tenant, fleetId: string, grantId: string): Promise<Grant> {
  const page = await listGrants(owner, fleetId, "?limit=200");
  expect(page.status, page.text).toBe(200);
  const found = page.body.items.find((item) => item.grant_id === grantId);
  expect(found, `grant ${grantId} listed`).toBeDefined();
  return found!;
}

/** Mints (or rotates) the tenant's workspace webhook secret through the route. */
export async function mintWebhookSecret(tenant: Tenant): Promise<string> {
  const minted = await call<OutputOf<typeof rotateWebhookSecret>>(
    "POST",
    `/v1/workspaces/${tenant.workspaceId}/webhook-secret`,
    { token: tenant.apiKey },
  );
  expect(minted.status, minted.text).toBe(201);
  return minted.body.secret;
}

export interface SignedDecision {
  grant_id: string;
  decision: "approved" | "denied";
  nonce?: string;
}

let nonceCounter = 0;
export const freshNonce = () =>
  `nonce-${process.pid}-${++nonceCounter}-${Math.random().toString(36).slice(2)}`;

/**
 * Sends the grant-approval webhook, signed with `secret` at `timestamp` (Unix seconds) over the exact
 * bytes sent; `tamper` changes the body after signing.
 */
export function sendDecision(
  fleetId: string,
  decision: SignedDecision,
  secret: string,
  timestamp: number,
  options: { tamper?: (raw: string) => string; headers?: Record<string, string> } = {},
) {
  const raw = JSON.stringify({ nonce: freshNonce(), ...decision });
  const signature = sign(secret, timestamp, raw);
  return call("POST", `/v1/webhooks/${fleetId}/grant-approval`, {
    rawBody: options.tamper ? options.tamper(raw) : raw,
    headers: {
      "content-type": "application/json",
      "x-signature-timestamp": String(timestamp),
      "x-signature": signature,
      ...options.headers,
    },
  });
}

/** What a refused call must leave exactly as it was: the grant, its gate, the nonces and the audit log. */
export async function snapshot(tenant: Tenant, grantId: string) {
  const api = await testApi();
  const db = api.database.db;
  const [grant] = await db.select().from(integrationGrants).where(eq(integrationGrants.id, grantId));
  const gates = await db
    .select()
    .from(approvalGates)
    .where(eq(approvalGates.workspaceId, tenant.workspaceId));
  const nonces = await db
    .select()
    .from(webhookNonces)
    .where(eq(webhookNonces.workspaceId, tenant.workspaceId));
  const audit = await db.select().from(auditEvents).where(eq(auditEvents.workspaceId, tenant.workspaceId));
  return { grant, gates, nonces, audit };
}

/** A tenant with a webhook secret, a fleet and a pending grant of it. */
export async function pendingGrant(service = "github") {
  const tenant = await seedTenant();
  const secret = await mintWebhookSecret(tenant);
  const fleetId = await installFleet(tenant);
  const requested = await requestGrant(tenant, fleetId, service);
  expect(requested.status, requested.text).toBe(201);
  return { tenant, secret, fleetId, grantId: requested.body.grant_id, gateId: requested.body.gate_id! };
}

/** Now in Unix seconds, as a signature's timestamp. */
export const nowS = () => Math.floor(Date.now() / 1000);
