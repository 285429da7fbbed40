import { beforeAll, describe, expect, it } from "vitest";
import { leaseMaskerById } from "../src/services/secrets/lease-masker.ts";
import { openGate } from "./approval-fixtures.ts";
import { call, testApi } from "./harness.ts";
import { CANARY, canaryRun, fleetPath, MASKED, replaceCanary } from "./masking-fixtures.ts";
import { report } from "./runner-fixtures.ts";
import { fleetStream, openTail } from "./stream-fixtures.ts";

// The worker's API (and on PGlite its database) starts in a hook, not inside the first test's time.
beforeAll(async () => {
  await testApi();
}, 60_000);

describe("masking what a run sends back", () => {
  for (const fetch of [true, false]) {
    it(`masks activity frames on the live tail (credentials ${fetch ? "fetched" : "never fetched"})`, async () => {
      const { owner, leased } = await canaryRun(fetch);
      const stream = await openTail(fleetStream(owner, leased.fleetId), owner.apiKey);
      try {
        const published = await call("POST", `/v1/runners/me/leases/${leased.lease.lease_id}/activity`, {
          token: leased.runner.token,
          body: {
            frames: [
              { tool_call_started: { name: "deploy", args_redacted: `{"token":"${CANARY}"}` } },
              { fleet_response_chunk: { text: `using ${CANARY} now` } },
            ],
          },
        });
        expect(published.status, published.text).toBe(202);
        const chunk = await stream.next((frame) => frame.event === "chunk");
        expect(chunk.data.payload.text).toBe(`using ${MASKED} now`);
        const started = stream.frames.find((frame) => frame.event === "tool_call_started");
        expect(started?.data.payload.args_redacted).toBe(`{"token":"${MASKED}"}`);
        expect(JSON.stringify(stream.frames)).not.toContain(CANARY);
      } finally {
        stream.close();
      }
    });
  }

  it("masks a report's response_text in the event read and its event_complete frame", async () => {
    const { owner, leased } = await canaryRun();
    const stream = await openTail(fleetStream(owner, leased.fleetId), owner.apiKey);
    try {
      const reported = await report(leased.runner, leased.lease, { response_text: `the key is ${CANARY}` });
      expect(reported.status, reported.text).toBe(200);
      await stream.next((frame) => frame.event === "event_complete");
      expect(JSON.stringify(stream.frames)).not.toContain(CANARY);
    } finally {
      stream.close();
    }
    const event = await call("GET", `${fleetPath(owner, leased)}/events/${leased.lease.event_id}`, {
      token: owner.apiKey,
    });
    expect(event.status, event.text).toBe(200);
    expect(event.text).not.toContain(CANARY);
    expect(event.body.response_text).toBe(`the key is ${MASKED}`);
    const list = await call("GET", `${fleetPath(owner, leased)}/events`, { token: owner.apiKey });
    expect(list.status, list.text).toBe(200);
    expect(list.text).not.toContain(CANARY);
  });

  it("masks reports sent at once each by its own run's values (an upper-case lease id too)", async () => {
    const OTHER = "other_value_3b7d90c1e4";
    const runs = await Promise.all([canaryRun(), canaryRun(false), canaryRun(), canaryRun(false)]);
    // The second and fourth runs were given nothing, and their tenants' CANARY_TOKEN is OTHER now.
    await Promise.all([replaceCanary(runs[1]!.owner, OTHER), replaceCanary(runs[3]!.owner, OTHER)]);
    const text = `${CANARY} and ${OTHER}`;
    const reported = await Promise.all(
      runs.map(({ leased }, n) =>
        report(leased.runner, leased.lease, {
          response_text: text,
          ...(n >= 2 ? { lease_id: leased.lease.lease_id.toUpperCase() } : {}),
        }),
      ),
    );
    for (const answer of reported) expect(answer.status, answer.text).toBe(200);
    const expected = [`${MASKED} and ${OTHER}`, `${CANARY} and ${MASKED}`];
    for (const [n, { owner, leased }] of runs.entries()) {
      const event = await call("GET", `${fleetPath(owner, leased)}/events/${leased.lease.event_id}`, {
        token: owner.apiKey,
      });
      expect(event.status, event.text).toBe(200);
      expect(event.body.response_text).toBe(expected[n % 2]);
    }
  });

  it("builds each run's masker from its own lease when their leases are read in one statement", async () => {
    const OTHER = "other_value_8e1f27a5c3";
    const runs = await Promise.all([canaryRun(false), canaryRun(false), canaryRun(false)]);
    await replaceCanary(runs[1]!.owner, OTHER);
    const api = await testApi();
    // Asked in one turn: one batch, one statement.
    const masks = await Promise.all(
      runs.map(({ leased }) => leaseMaskerById(api.app.services, leased.lease.lease_id)),
    );
    const text = `${CANARY} and ${OTHER}`;
    expect(masks.map((mask) => mask(text))).toEqual([
      `${MASKED} and ${OTHER}`,
      `${CANARY} and ${MASKED}`,
      `${MASKED} and ${OTHER}`,
    ]);
  });

  it("masks a failed report's failure_detail", async () => {
    const { owner, leased } = await canaryRun(false);
    const reported = await report(leased.runner, leased.lease, {
      outcome: "fleet_error",
      response_text: undefined,
      failure_label: "deploy_failed",
      failure_detail: `auth with ${CANARY} was refused`,
    });
    expect(reported.status, reported.text).toBe(200);
    const event = await call("GET", `${fleetPath(owner, leased)}/events/${leased.lease.event_id}`, {
      token: owner.apiKey,
    });
    expect(event.status, event.text).toBe(200);
    expect(event.text).not.toContain(CANARY);
    expect(event.body.failure_detail).toBe(`auth with ${MASKED} was refused`);
  });

  it("masks a memory the run writes, in its answer and the memories list", async () => {
    const { owner, leased } = await canaryRun();
    const written = await call("PUT", `/v1/runners/me/leases/${leased.lease.lease_id}/memories/creds`, {
      token: leased.runner.token,
      body: { fencing_token: leased.lease.fencing_token, content: `remember ${CANARY}` },
    });
    expect(written.status, written.text).toBe(200);
    expect(written.body.content).toBe(`remember ${MASKED}`);
    const list = await call("GET", `${fleetPath(owner, leased)}/memories`, { token: owner.apiKey });
    expect(list.status, list.text).toBe(200);
    expect(list.text).not.toContain(CANARY);
    expect(list.text).toContain(MASKED);
  });

  it("masks a schedule's message the run creates (already masked: verified)", async () => {
    const { owner, leased } = await canaryRun();
    const created = await call("POST", `/v1/runners/me/leases/${leased.lease.lease_id}/schedules`, {
      token: leased.runner.token,
      body: { fencing_token: leased.lease.fencing_token, cron: "0 9 * * *", message: `rotate ${CANARY}` },
    });
    expect(created.status, created.text).toBe(201);
    expect(created.text).not.toContain(CANARY);
    const read = await call("GET", `${fleetPath(owner, leased)}/schedules/${created.body.schedule_id}`, {
      token: owner.apiKey,
    });
    expect(read.status, read.text).toBe(200);
    expect(read.body.message).toBe(`rotate ${MASKED}`);
  });

  it("masks a gate's proposed_action and evidence (already masked: verified)", async () => {
    const { owner, leased } = await canaryRun();
    const opened = await openGate(leased, {
      proposed_action: `push with ${CANARY}`,
      evidence: { header: `Bearer ${CANARY}` },
    });
    expect(opened.status, opened.text).toBe(201);
    const read = await call("GET", `/v1/workspaces/${owner.workspaceId}/approvals/${opened.body.gate_id}`, {
      token: owner.apiKey,
    });
    expect(read.status, read.text).toBe(200);
    expect(read.text).not.toContain(CANARY);
    expect(read.body).toMatchObject({
      proposed_action: `push with ${MASKED}`,
      evidence: { header: `Bearer ${MASKED}` },
    });
  });

  it("masks a replaced secret's old and new values for a run that was given the old one", async () => {
    const { owner, leased } = await canaryRun();
    await replaceCanary(owner, "rotated_value_9e2c41");
    const written = await call("PUT", `/v1/runners/me/leases/${leased.lease.lease_id}/memories/both`, {
      token: leased.runner.token,
      body: { fencing_token: leased.lease.fencing_token, content: `${CANARY} then rotated_value_9e2c41` },
    });
    expect(written.status, written.text).toBe(200);
    expect(written.body.content).toBe(`${MASKED} then ${MASKED}`);
  });
});
