import { describe, expect, it } from "vitest";
import { call, seedTenant, type Tenant, testApi, useIsolatedApi } from "./harness.ts";
import { type OpenedStream, openStream, workspaceStream } from "./stream-fixtures.ts";

// Open streams are capped per credential and per tenant below the instance's cap, so one tenant's idle
// streams never take another tenant's live tail away (issue 29).
describe("live-tail stream caps per credential and per tenant", () => {
  useIsolatedApi({
    FLEET_MAX_STREAMS: "6",
    FLEET_MAX_STREAMS_PER_TENANT: "3",
    FLEET_MAX_STREAMS_PER_CREDENTIAL: "2",
  });

  const open: OpenedStream[] = [];
  async function tail(owner: Tenant, token: string, path = workspaceStream(owner)) {
    const stream = await openStream((await testApi()).baseUrl, path, { token });
    if (stream.status === 200) open.push(stream);
    return stream;
  }
  async function closeAll() {
    for (const stream of open.splice(0)) {
      stream.close();
      await stream.ended;
    }
  }
  async function secondKey(owner: Tenant) {
    const minted = await call<{ key: string }>("POST", "/v1/api-keys", {
      token: owner.apiKey,
      body: { key_name: "second" },
    });
    expect(minted.status, minted.text).toBe(201);
    return minted.body.key;
  }
  const refusedAs = (stream: OpenedStream, status: number, code: string) => {
    expect(stream.status).toBe(status);
    expect(stream.problem.error_code).toBe(code);
    expect(Number(stream.headers["retry-after"])).toBeGreaterThan(0);
  };

  it("refuses a credential past its share and a tenant past its own, 429 UZ-API-001, while another tenant still tails", async () => {
    const greedy = await seedTenant();
    const other = await seedTenant();
    try {
      const key = await secondKey(greedy);
      expect((await tail(greedy, greedy.apiKey)).status).toBe(200);
      expect((await tail(greedy, greedy.apiKey)).status).toBe(200);
      refusedAs(await tail(greedy, greedy.apiKey), 429, "UZ-API-001");
      expect((await tail(greedy, key)).status).toBe(200);
      const overTenant = await tail(greedy, key);
      refusedAs(overTenant, 429, "UZ-API-001");
      expect(overTenant.problem.detail).toContain("tenant");
      // The greedy tenant holds 3 of the instance's 6: the other tenant's live tail is still admitted.
      expect((await tail(other, other.apiKey)).status).toBe(200);
    } finally {
      await closeAll();
    }
  });

  it("admits exactly the share of racing opens, gives places back on close, and a refused resolve keeps none", async () => {
    const owner = await seedTenant();
    try {
      const racing = await Promise.all([1, 2, 3, 4, 5].map(() => tail(owner, owner.apiKey)));
      expect(racing.map((s) => s.status).sort()).toEqual([200, 200, 429, 429, 429]);
      await closeAll();
      // Requests that fail after admission (a fleet not found) give their place back.
      const missing = `${workspaceStream(owner).replace("/events/stream", "")}/fleets/0190e1c5-0000-7000-8000-000000000000/events/stream`;
      for (let i = 0; i < 3; i++) expect((await tail(owner, owner.apiKey, missing)).status).toBe(404);
      // The server hears of the closes on its own time: retry as a client told Retry-After would.
      let admitted = 0;
      for (let attempt = 0; attempt < 50 && admitted < 2; attempt++) {
        const again = await tail(owner, owner.apiKey);
        if (again.status === 200) admitted++;
        else await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(admitted).toBe(2);
    } finally {
      await closeAll();
    }
  });
});
