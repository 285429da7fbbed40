import { WEBHOOK_SECRET_OVERLAP_MS } from "@fleet/contracts";
import { describe, expect, it } from "vitest";
import { installFleet } from "./fleet-fixtures.ts";
import { call, seedMember, seedTenant } from "./harness.ts";
import {
  endpointIn,
  endpointsPath,
  type MintedEndpoint,
  PUBLIC_ENDPOINT_URL,
} from "./webhook-endpoint-fixtures.ts";

describe("webhook endpoints", () => {
  it("shows the secret once: at create and at rotate, never on a read or a list", async () => {
    const owner = await seedTenant();
    const fleetId = await installFleet(owner);
    const created = await endpointIn(owner, { fleet_id: fleetId, description: "ops pager" });
    expect(created).toMatchObject({
      url: PUBLIC_ENDPOINT_URL,
      event_types: ["event.failed"],
      fleet_id: fleetId,
      enabled: true,
      disabled_reason: null,
      previous_secret_expires_at: null,
      description: "ops pager",
    });
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const read = await call("GET", `${endpointsPath(owner)}/${created.id}`, { token: owner.apiKey });
    expect(read.status).toBe(200);
    const list = await call<{ items: unknown[] }>("GET", endpointsPath(owner), { token: owner.apiKey });
    expect(list.body.items).toHaveLength(1);
    for (const text of [read.text, list.text]) expect(text).not.toContain(created.secret);
    expect(read.body).not.toHaveProperty("secret");

    const rotated = await call<MintedEndpoint>(
      "POST",
      `${endpointsPath(owner)}/${created.id}/rotate-secret`,
      {
        token: owner.apiKey,
      },
    );
    expect(rotated.status, rotated.text).toBe(201);
    expect(rotated.headers.get("cache-control")).toBe("no-store");
    expect(rotated.body.secret).not.toBe(created.secret);
    expect(rotated.body.previous_secret_expires_at).toBe(
      rotated.body.secret_created_at! + WEBHOOK_SECRET_OVERLAP_MS,
    );
  });

  it("refuses a URL that is not https to a public host, and event types it does not send", async () => {
    const owner = await seedTenant();
    for (const url of [
      "http://1.1.1.1/hooks",
      "https://127.0.0.1/hooks",
      "https://10.0.0.7/",
      "https://u:p@1.1.1.1/",
    ]) {
      const refused = await call("POST", endpointsPath(owner), {
        token: owner.apiKey,
        body: { url, event_types: ["gate.opened"] },
      });
      expect(refused.status, url).toBe(400);
      expect(refused.body.error_code, url).toBe("UZ-WEBHOOK-008");
    }
    const unknown = await call("POST", endpointsPath(owner), {
      token: owner.apiKey,
      body: { url: PUBLIC_ENDPOINT_URL, event_types: ["gate.exploded"] },
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error_code).toBe("UZ-REQ-001");
    const created = await endpointIn(owner);
    const changed = await call("PATCH", `${endpointsPath(owner)}/${created.id}`, {
      token: owner.apiKey,
      body: { url: "https://169.254.169.254/latest" },
    });
    expect(changed.status).toBe(400);
    expect(changed.body.error_code).toBe("UZ-WEBHOOK-008");
  });

  it("updates and deletes; an unknown endpoint answers 404 UZ-WEBHOOK-007", async () => {
    const owner = await seedTenant();
    const created = await endpointIn(owner);
    const updated = await call("PATCH", `${endpointsPath(owner)}/${created.id}`, {
      token: owner.apiKey,
      body: { enabled: false, event_types: ["gate.opened", "gate.decided"] },
    });
    expect(updated.status, updated.text).toBe(200);
    expect(updated.body).toMatchObject({ enabled: false, event_types: ["gate.opened", "gate.decided"] });
    const removed = await call("DELETE", `${endpointsPath(owner)}/${created.id}`, { token: owner.apiKey });
    expect(removed.status).toBe(204);
    const gone = await call("GET", `${endpointsPath(owner)}/${created.id}`, { token: owner.apiKey });
    expect(gone.status).toBe(404);
    expect(gone.body.error_code).toBe("UZ-WEBHOOK-007");
  });

  it("serves the event types with their payload schemas; owners hold the webhook scopes, others need them", async () => {
    const owner = await seedTenant();
    const types = await call<{
      items: { type: string; data_schema: { $defs?: Record<string, { properties?: object }> } }[];
    }>("GET", "/v1/webhook-event-types", { token: owner.apiKey });
    expect(types.status).toBe(200);
    expect(types.body.items.map((item) => item.type)).toEqual([
      "gate.opened",
      "gate.decided",
      "gate.escalated",
      "gate.timed_out",
      "grant.requested",
      "grant.decided",
      "event.received",
      "event.completed",
      "event.failed",
      "runner.offline",
      "schedule.sync_failed",
      "budget.threshold_crossed",
      "budget.exhausted",
      "api_key.revoked",
      "member.removed",
    ]);
    expect(types.body.items[0]!.data_schema.$defs?.ApprovalGate?.properties).toHaveProperty("gate_id");
    const viewer = await seedMember(owner, ["fleet:read"]);
    const refused = await call("GET", endpointsPath(owner), { token: viewer.token });
    expect(refused.status).toBe(403);
    expect(refused.body.error_code).toBe("UZ-AUTH-022");
  });

  it("filters by a fleet of its own workspace only: another tenant's fleet is 404, an upper-case id is the same fleet", async () => {
    const owner = await seedTenant();
    const other = await seedTenant();
    const foreign = await installFleet(other);
    const body = { url: PUBLIC_ENDPOINT_URL, event_types: ["event.failed"] };
    const refused = await call("POST", endpointsPath(owner), {
      token: owner.apiKey,
      body: { ...body, fleet_id: foreign },
    });
    expect(refused.status, refused.text).toBe(404);
    expect(refused.headers.get("content-type")).toContain("application/problem+json");
    const listed = await call<{ items: unknown[] }>("GET", endpointsPath(owner), { token: owner.apiKey });
    expect(listed.body.items).toHaveLength(0);
    const own = await installFleet(owner);
    const created = await endpointIn(owner, { fleet_id: own.toUpperCase() });
    expect(created.fleet_id).toBe(own);
  });
});
