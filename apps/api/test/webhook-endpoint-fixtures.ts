import type { OutputOf } from "@fleet/contracts";
import type { createWebhookEndpoint } from "@fleet/contracts/webhook-endpoints/create-webhook-endpoint";
import { expect } from "vitest";
import { call, type Tenant } from "./harness.ts";

export type MintedEndpoint = OutputOf<typeof createWebhookEndpoint>;

/**
 * A public IP literal: passes the address check with no DNS. Fixtures subscribe it to `event.failed` only,
 * which their tenants never cause, so nothing is sent to it.
 */
export const PUBLIC_ENDPOINT_URL = "https://1.1.1.1/fleet-hooks";

export function endpointsPath(owner: Tenant) {
  return `/v1/workspaces/${owner.workspaceId}/webhook-endpoints`;
}

/** An endpoint of the owner's workspace, made through the API. */
export async function endpointIn(owner: Tenant, body: Record<string, unknown> = {}): Promise<MintedEndpoint> {
  const created = await call<MintedEndpoint>("POST", endpointsPath(owner), {
    token: owner.apiKey,
    body: { url: PUBLIC_ENDPOINT_URL, event_types: ["event.failed"], ...body },
  });
  expect(created.status, created.text).toBe(201);
  return created.body;
}

/**
 * A disabled endpoint (the deliverer skips it, so nothing is sent anywhere) with one delivery: a ping,
 * pending. Made through the API.
 */
export async function pingedEndpoint(owner: Tenant): Promise<{ endpoint: MintedEndpoint; eventId: string }> {
  const endpoint = await endpointIn(owner, { enabled: false });
  const pinged = await call<{ id: string }>("POST", `${endpointsPath(owner)}/${endpoint.id}/test`, {
    token: owner.apiKey,
  });
  expect(pinged.status, pinged.text).toBe(202);
  return { endpoint, eventId: pinged.body.id };
}
