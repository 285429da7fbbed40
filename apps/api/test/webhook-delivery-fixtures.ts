import type { OutputOf } from "@fleet/contracts";
import type { createWebhookEndpoint } from "@fleet/contracts/webhook-endpoints/create-webhook-endpoint";
import type { WebhookDeliveryItem } from "@fleet/contracts/webhook-endpoints/webhook-delivery";
import type { WebhookEndpointItem } from "@fleet/contracts/webhook-endpoints/webhook-endpoint";
import {
  type ReceivedDelivery,
  startWebhookReceiver,
  type WebhookReceiver,
} from "@fleet/testing/webhook-receiver";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, expect } from "vitest";
import { call, type Tenant } from "./harness.ts";
import { endpointsPath } from "./webhook-endpoint-fixtures.ts";

/** Helpers of the delivery log tests: each goes through the API, as an integrator would. */
export type Minted = OutputOf<typeof createWebhookEndpoint>;
export type DeliveryPage = { items: WebhookDeliveryItem[]; total: number; next_cursor: string | null };

export const DAY_MS = 86_400_000;

/** Subscribes `url` to `types` in the owner's workspace, through the API. */
export async function subscribe(
  owner: Tenant,
  url: string,
  types: string[],
  extra: object = {},
): Promise<Minted> {
  const created = await call<Minted>("POST", endpointsPath(owner), {
    token: owner.apiKey,
    body: { url, event_types: types, ...extra },
  });
  expect(created.status, created.text).toBe(201);
  return created.body;
}

export const endpointPath = (owner: Tenant, endpointId: string) => `${endpointsPath(owner)}/${endpointId}`;

export async function deliveries(owner: Tenant, endpointId: string, query = "") {
  const listed = await call<DeliveryPage>("GET", `${endpointPath(owner, endpointId)}/deliveries${query}`, {
    token: owner.apiKey,
  });
  expect(listed.status, listed.text).toBe(200);
  return listed.body;
}

export async function endpointRead(owner: Tenant, endpointId: string): Promise<WebhookEndpointItem> {
  const read = await call<WebhookEndpointItem>("GET", endpointPath(owner, endpointId), {
    token: owner.apiKey,
  });
  expect(read.status, read.text).toBe(200);
  return read.body;
}

export async function ping(owner: Tenant, endpointId: string, token = owner.apiKey) {
  return call<WebhookDeliveryItem>("POST", `${endpointPath(owner, endpointId)}/test`, { token });
}

/** Verifies a delivery exactly as an integrator would, with the `standardwebhooks` package. */
export function verified(secret: string, delivery: ReceivedDelivery) {
  return new Webhook(secret).verify(delivery.body, {
    "webhook-id": String(delivery.headers["webhook-id"]),
    "webhook-timestamp": String(delivery.headers["webhook-timestamp"]),
    "webhook-signature": String(delivery.headers["webhook-signature"]),
  }) as { id: string; type: string; timestamp: string; data: Record<string, unknown> };
}

/** Polls `read` until it answers something, or fails after `ms`. */
export async function until<T>(read: () => Promise<T | undefined>, ms = 20_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`nothing within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The delivery once its status is `status` with `attempts` recorded (a claim in flight shows neither). */
export async function settled(
  owner: Tenant,
  endpointId: string,
  eventId: string,
  status: string,
  attempts = 1,
) {
  return until(async () => {
    const page = await deliveries(owner, endpointId);
    const found = page.items.find((item) => item.id === eventId);
    return found?.status === status && found.attempts.length >= attempts ? found : undefined;
  });
}

export function verifiesWith(secret: string, delivery: ReceivedDelivery): boolean {
  try {
    verified(secret, delivery);
    return true;
  } catch {
    return false;
  }
}

/** Replay bodies that must be refused 400: not an object, no since, NUL, numbers too large or not integers. */
export function hostileReplayBodies(): string[] {
  return [
    "null",
    "[]",
    '"since"',
    "{}",
    '{"since":null}',
    '{"since":"\\u0000"}',
    '{"since":1e400}',
    '{"since":123456789012345678901234567890}',
    '{"since":-1}',
    '{"since":1.5}',
    `{"since":${Date.now()},"extra":"\\u0000"}`,
  ];
}

/** A local receiver for a file's tests (started before them, closed after): read it through the getter. */
export function useLocalReceiver(): () => WebhookReceiver {
  let receiver: WebhookReceiver | undefined;
  beforeAll(async () => {
    receiver = await startWebhookReceiver();
  });
  afterAll(() => receiver?.close());
  return () => receiver!;
}
