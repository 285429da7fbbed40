import { type OutputOf, type ProblemBody, rolePresets } from "@fleet/contracts";
import type { createApiKey } from "@fleet/contracts/api-keys/create-api-key";
import type { WebhookDeliveryItem } from "@fleet/contracts/webhook-endpoints/webhook-delivery";
import { describe, expect, it } from "vitest";
import { newWorkspace } from "./fleet-library-fixtures.ts";
import { call, seedTenant, sessionFor, type Tenant, useIsolatedApi } from "./harness.ts";
import {
  deliveries,
  endpointPath,
  ping,
  settled,
  subscribe,
  until,
  useLocalReceiver,
} from "./webhook-delivery-fixtures.ts";
import { pingedEndpoint } from "./webhook-endpoint-fixtures.ts";

/** `GET …/webhook-endpoints/{endpoint_id}/deliveries/{event_id}`: one delivery, as the log shows it. */
const deliveryPath = (owner: Tenant, endpointId: string, eventId: string) =>
  `${endpointPath(owner, endpointId)}/deliveries/${eventId}`;

const read = (owner: Tenant, endpointId: string, eventId: string, token = owner.apiKey) =>
  // A refusal answers a problem instead: its fields are read where a test expects one.
  call<WebhookDeliveryItem & Partial<ProblemBody>>("GET", deliveryPath(owner, endpointId, eventId), {
    token,
  });

/** A UUIDv7 that names nothing. */
const ABSENT_ID = "01a2000a-0000-7000-8000-000000000000";

/** A key minted by `token`: with these scopes, or (none given) with the minter's own. */
async function mintKey(token: string, scopes?: readonly string[]): Promise<string> {
  const minted = await call<OutputOf<typeof createApiKey>>("POST", "/v1/api-keys", {
    token,
    body: { key_name: "narrow", ...(scopes ? { scopes } : {}) },
  });
  expect(minted.status, minted.text).toBe(201);
  return minted.body.key;
}

describe("webhook deliveries: reading one (dev mode: a local receiver)", () => {
  useIsolatedApi({ FLEET_DEV_MODE: "true" });
  const localReceiver = useLocalReceiver();

  it("answers the delivery exactly as the log lists it, attempts newest first; upper-case ids are the same", {
    timeout: 60_000,
  }, async () => {
    const owner = await seedTenant();
    const receiver = localReceiver();
    const endpoint = await subscribe(owner, receiver.url, ["gate.opened"]);
    // The first attempt answers 500: the delivery stays pending with that attempt, its retry 5 s ahead.
    receiver.answerNext(500);
    const sent = await ping(owner, endpoint.id);
    expect(sent.status, sent.text).toBe(202);
    const pending = await settled(owner, endpoint.id, sent.body.id, "pending");
    const first = await read(owner, endpoint.id, sent.body.id);
    expect(first.status, first.text).toBe(200);
    expect(first.body).toEqual((await deliveries(owner, endpoint.id)).items[0]);
    expect(first.body).toMatchObject({ id: sent.body.id, status: "pending", attempt_count: 1 });
    expect(first.body.attempts.map((a) => a.status_code)).toEqual([500]);
    expect(first.body.request).toEqual(sent.body.request);
    expect(pending.id).toBe(sent.body.id);

    // Once the retry succeeds the read follows it: two attempts, the 2xx first.
    const done = await until(async () => {
      const again = await read(owner, endpoint.id, sent.body.id);
      return again.body.status === "succeeded" && again.body.attempts.length === 2 ? again.body : undefined;
    });
    expect(done.attempts.map((a) => [a.attempt, a.status_code])).toEqual([
      [2, 200],
      [1, 500],
    ]);
    expect(done.next_attempt_at).toBeNull();
    expect(done).toEqual((await deliveries(owner, endpoint.id)).items[0]);

    const upper = await read(
      { ...owner, workspaceId: owner.workspaceId.toUpperCase() },
      endpoint.id.toUpperCase(),
      sent.body.id.toUpperCase(),
    );
    expect(upper.status, upper.text).toBe(200);
    expect(upper.body).toEqual(done);

    // The console reads it over /trpc with a session: the same delivery.
    const input = encodeURIComponent(
      JSON.stringify({ workspace_id: owner.workspaceId, endpoint_id: endpoint.id, event_id: sent.body.id }),
    );
    const trpc = await call<{ result: { data: WebhookDeliveryItem } }>(
      "GET",
      `/trpc/webhookEndpoints.getDelivery?input=${input}`,
      { headers: { cookie: `fleet_session=${await sessionFor(owner)}` } },
    );
    expect(trpc.status, trpc.text).toBe(200);
    expect(trpc.body.result.data).toEqual(done);
  });

  it("is 404 for an unknown or another endpoint's event (UZ-WEBHOOK-010), and another's endpoint (UZ-WEBHOOK-007)", async () => {
    const owner = await seedTenant();
    const other = await seedTenant();
    const { endpoint, eventId } = await pingedEndpoint(owner);
    const { endpoint: sibling, eventId: siblingEvent } = await pingedEndpoint(owner);
    expect((await read(owner, endpoint.id, eventId)).status).toBe(200);

    // An event this endpoint was never sent: unknown, or the sibling's (an event of the same workspace).
    for (const [endpointId, event] of [
      [endpoint.id, ABSENT_ID],
      [endpoint.id, siblingEvent],
      [sibling.id, eventId],
    ] as const) {
      const refused = await read(owner, endpointId, event);
      expect(refused.status, `${endpointId} ${event}`).toBe(404);
      expect(refused.headers.get("content-type")).toMatch(/^application\/problem\+json/);
      expect(refused.body.error_code).toBe("UZ-WEBHOOK-010");
    }
    // An unknown endpoint, the endpoint under another workspace of the tenant, another tenant's key.
    const second = { ...owner, workspaceId: await newWorkspace(owner) };
    for (const [label, refused] of [
      ["unknown endpoint", await read(owner, ABSENT_ID, eventId)],
      ["another workspace", await read(second, endpoint.id, eventId)],
      ["another tenant", await read(other, endpoint.id, eventId, other.apiKey)],
    ] as const) {
      expect(refused.status, label).toBe(404);
      expect(refused.body.error_code, label).toBe("UZ-WEBHOOK-007");
      expect(refused.text, label).not.toContain(eventId);
    }
    // The other tenant's key on the owner's own path reaches nothing either.
    const crossed = await read(owner, endpoint.id, eventId, other.apiKey);
    expect(crossed.status).toBe(404);
    expect(crossed.text).not.toContain(eventId);
  });

  it("refuses a malformed or hostile id with 400 UZ-REQ-001, as the retry beside it does", async () => {
    const owner = await seedTenant();
    const { endpoint, eventId } = await pingedEndpoint(owner);
    const hostile = [
      "not-a-uuid",
      "%00",
      `${eventId.slice(0, -1)}%00`,
      "A%ED%A0%80",
      "null",
      "A".repeat(5_000),
      // A UUID of another version is not an id of ours.
      "6ba7b810-9dad-11d1-80b4-00c04fd430c8",
    ];
    for (const bad of hostile) {
      for (const path of [
        deliveryPath(owner, endpoint.id, bad),
        deliveryPath(owner, bad, eventId),
        `${deliveryPath(owner, endpoint.id, bad)}/retry`,
      ]) {
        const method = path.endsWith("/retry") ? "POST" : "GET";
        const refused = await call(method, path, { token: owner.apiKey });
        expect(refused.status, `${method} ${bad.slice(0, 40)}`).toBe(400);
        expect(refused.headers.get("content-type")).toMatch(/^application\/problem\+json/);
        expect(refused.body.error_code).toBe("UZ-REQ-001");
      }
    }
  });

  it("needs webhook:read: a key without it is 403, and so is a key minted by such a key", async () => {
    const owner = await seedTenant();
    const { endpoint, eventId } = await pingedEndpoint(owner);
    const expectRefused = async (token: string, label: string) => {
      const refused = await read(owner, endpoint.id, eventId, token);
      expect(refused.status, label).toBe(403);
      expect(refused.headers.get("content-type")).toMatch(/^application\/problem\+json/);
      expect(refused.body.error_code, label).toBe("UZ-AUTH-022");
      expect(refused.body.detail, label).toContain("webhook:read");
    };
    for (const preset of ["viewer", "approver"]) {
      await expectRefused(
        await mintKey(owner.apiKey, rolePresets.find((p) => p.id === preset)!.scopes),
        preset,
      );
    }
    // A key minted by a key acts with at most its minter's scopes: one without webhook:read mints none.
    const minter = await mintKey(owner.apiKey, ["apikey:write", "fleet:read"]);
    await expectRefused(await mintKey(minter), "minted by a key without webhook:read");
    const overreach = await call("POST", "/v1/api-keys", {
      token: minter,
      body: { key_name: "wider", scopes: ["webhook:read"] },
    });
    expect(overreach.status, overreach.text).toBe(403);
    expect(overreach.body.error_code).toBe("UZ-AUTH-022");

    const reader = await mintKey(owner.apiKey, ["webhook:read", "apikey:write"]);
    expect((await read(owner, endpoint.id, eventId, reader)).status).toBe(200);
    const child = await read(owner, endpoint.id, eventId, await mintKey(reader));
    expect(child.status, child.text).toBe(200);
    expect(child.body.id).toBe(eventId);
    // A read is no write: the reader may not retry.
    const retry = await call("POST", `${deliveryPath(owner, endpoint.id, eventId)}/retry`, { token: reader });
    expect(retry.status).toBe(403);
  });
});
