import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { leasedFleet } from "./approval-fixtures.ts";
import { messageFleet } from "./fleet-fixtures.ts";
import { call, callAt, type Response, seedTenant, startApi, type TestApi, testApi } from "./harness.ts";
import { expectRefusal, LIMITED, seed, WORKSPACE_QUOTA } from "./rate-limit-fixtures.ts";
import { openTail } from "./stream-fixtures.ts";

/** The id with every other letter in capitals: the same UUID, spelled another way. */
function respell(id: string, shift = 0): string {
  let letter = shift;
  return id.replace(/[a-f]/g, (c) => (letter++ % 2 === 0 ? c.toUpperCase() : c));
}

// An id is one id however it is spelled: letters in capitals name the same resource everywhere, and
// nothing that keys on an id (a stream's subscription, a rate-limit bucket) tells the spellings apart.
describe("an id spelled in capitals", () => {
  it("reads the same fleet, answered in the id's one spelling", async () => {
    const owner = await seedTenant();
    const leased = await leasedFleet(owner);
    const read = await call<{ fleet_id: string; workspace_id: string }>(
      "GET",
      `/v1/workspaces/${respell(owner.workspaceId)}/fleets/${leased.fleetId.toUpperCase()}`,
      { token: owner.apiKey },
    );
    expect(read.status, read.text).toBe(200);
    expect(read.body).toMatchObject({ fleet_id: leased.fleetId, workspace_id: owner.workspaceId });
  });

  it("opens a fleet's live tail that receives the fleet's frames", async () => {
    const owner = await seedTenant();
    const leased = await leasedFleet(owner);
    const path = `/v1/workspaces/${respell(owner.workspaceId)}/fleets/${respell(leased.fleetId, 1)}/events/stream`;
    const stream = await openTail(path, owner.apiKey);
    try {
      await stream.next((frame) => frame.event === "hello");
      const eventId = await messageFleet(owner, leased.fleetId, "spelled another way");
      const received = await stream.next(
        (frame) => frame.event === "event_received" && frame.data.event_id === eventId,
        5_000,
      );
      expect(received.data).toMatchObject({ fleet_id: leased.fleetId, workspace_id: owner.workspaceId });
    } finally {
      stream.close();
    }
  });

  it("refuses another tenant's resource as absent, in any spelling", async () => {
    const owner = await seedTenant();
    const stranger = await seedTenant();
    const leased = await leasedFleet(owner);
    const path = `/v1/workspaces/${owner.workspaceId.toUpperCase()}/fleets/${leased.fleetId.toUpperCase()}`;
    const refused = await call("GET", path, { token: stranger.apiKey });
    expect(refused.status, refused.text).toBe(404);
  });
});

describe("a workspace's request quota, whatever the id's spelling", () => {
  let api: TestApi;
  beforeAll(async () => {
    const shared = await testApi();
    api = await startApi({ ...LIMITED, DATABASE_URL: shared.config.databaseUrl });
  }, 60_000);
  afterAll(async () => {
    await api.app.close();
    await api.database.close();
  });

  it("is spent by every spelling of the id alike: capitals open no fresh bucket", async () => {
    const tenant = await seed(api);
    const statuses: number[] = [];
    let refusal: Response | null = null;
    for (let i = 0; i < WORKSPACE_QUOTA + 3; i++) {
      // A new spelling each call: each would be a bucket of its own if the spellings were told apart.
      const spelled = i === 0 ? tenant.workspaceId : respell(tenant.workspaceId, i);
      const answer = await callAt(api.baseUrl, "GET", `/v1/workspaces/${spelled}/fleets`, {
        token: tenant.apiKey,
      });
      statuses.push(answer.status);
      if (answer.status === 429) refusal ??= answer;
    }
    expect(statuses.slice(0, WORKSPACE_QUOTA)).toEqual(Array(WORKSPACE_QUOTA).fill(200));
    expect(refusal, JSON.stringify(statuses)).not.toBeNull();
    expectRefusal(refusal!, /workspace's request quota/);
  });
});
