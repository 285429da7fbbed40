import { describe, expect, it } from "vitest";
import { call, useIsolatedApi } from "./harness.ts";

// Routes that take no credential (sign-in, chat ingress, the grant webhook) spend a per-address bucket,
// and the device sign-ins waiting at once are capped (issue 29).
const start = (forwardedFor?: string) =>
  call("POST", "/v1/auth/sessions", {
    body: { client_name: "fleetctl" },
    headers: forwardedFor === undefined ? {} : { "x-forwarded-for": forwardedFor },
  });
const statuses = async (calls: Promise<{ status: number }>[]) =>
  (await Promise.all(calls)).map((r) => r.status);

describe("per-address buckets on routes with no credential", () => {
  useIsolatedApi({ FLEET_RATE_LIMIT_ADDRESS: "3" });

  it("refuses an address past its quota with 429 UZ-API-001 and Retry-After; another address has its own", async () => {
    expect(await statuses([start(), start(), start()])).toEqual([201, 201, 201]);
    const refused = await start();
    expect(refused.status).toBe(429);
    expect(refused.headers.get("content-type")).toMatch(/^application\/problem\+json/);
    expect(refused.body).toMatchObject({ error_code: "UZ-API-001" });
    expect(String(refused.body.detail)).toContain("address");
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    // The API's own peer is a trusted proxy by default (loopback): the address it forwards is the client.
    expect((await start("203.0.113.7")).status).toBe(201);
    // Each route has its own bucket: the address's polls are not spent by its starts.
    const poll = await call("POST", "/v1/auth/sessions/token", { body: { device_code: "x".repeat(43) } });
    expect(poll.status).not.toBe(429);
  });

  it("counts an IPv6 client by its /64, however it spells its address", async () => {
    expect(
      await statuses([
        start("2001:db8:7:1::1"),
        start("2001:DB8:7:1:0:0:0:2"),
        start("2001:db8:7:1:ffff::9"),
      ]),
    ).toEqual([201, 201, 201]);
    expect((await start("2001:0db8:0007:0001::abcd")).status).toBe(429);
    expect((await start("2001:db8:7:2::1")).status).toBe(201);
    // An IPv4-mapped address is the IPv4 address.
    expect(
      await statuses([start("198.51.100.4"), start("198.51.100.4"), start("::ffff:198.51.100.4")]),
    ).toEqual([201, 201, 201]);
    expect((await start("198.51.100.4")).status).toBe(429);
  });

  it("limits the grant webhook and chat ingress before they verify anything", async () => {
    const fleet = "0190e1c5-0000-7000-8000-000000000001";
    const hook = () =>
      call("POST", `/v1/webhooks/${fleet}/grant-approval`, {
        body: { grant_id: fleet, decision: "approve" },
        headers: { "x-forwarded-for": "192.0.2.50" },
      });
    const first = await statuses([hook(), hook(), hook()]);
    expect(first).not.toContain(429);
    expect((await hook()).status).toBe(429);
    const ingress = () =>
      call("POST", "/v1/connectors/slack/events", {
        body: { type: "event_callback" },
        headers: { "x-forwarded-for": "192.0.2.51" },
      });
    expect(await statuses([ingress(), ingress(), ingress()])).not.toContain(429);
    expect((await ingress()).status).toBe(429);
  });
});

describe("per-address buckets with no trusted proxy", () => {
  useIsolatedApi({ FLEET_RATE_LIMIT_ADDRESS: "2", FLEET_TRUSTED_PROXIES: "none" });

  it("believes no X-Forwarded-For: a client cannot draw fresh buckets by naming other addresses", async () => {
    expect(await statuses([start("203.0.113.1"), start("203.0.113.2")])).toEqual([201, 201]);
    expect((await start("203.0.113.3")).status).toBe(429);
  });
});

describe("the cap on device sign-ins waiting at once", () => {
  useIsolatedApi({ FLEET_MAX_PENDING_DEVICE_SIGN_INS: "3" });

  it("admits exactly the cap of racing starts; the rest get 429 UZ-API-001 with Retry-After", async () => {
    const racing = await Promise.all([1, 2, 3, 4, 5, 6].map((n) => start(`203.0.113.${n}`)));
    expect(racing.map((r) => r.status).sort()).toEqual([201, 201, 201, 429, 429, 429]);
    const refused = racing.find((r) => r.status === 429)!;
    expect(refused.body).toMatchObject({ error_code: "UZ-API-001" });
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
  });
});
