import { beforeAll, describe, expect, it } from "vitest";
import { answerGate, openGate, readGate } from "./approval-fixtures.ts";
import { requestGrant } from "./grant-fixtures.ts";
import { call, operatorToken, type Tenant, testApi } from "./harness.ts";
import { CANARY, canaryRun, deliver, fleetPath, MASKED, replaceCanary } from "./masking-fixtures.ts";
import { report } from "./runner-fixtures.ts";
import { fleetStream, openTail } from "./stream-fixtures.ts";

// The worker's API (and on PGlite its database) starts in a hook, not inside the first test's time.
beforeAll(async () => {
  await testApi();
}, 60_000);

type Run = Awaited<ReturnType<typeof canaryRun>>;

/** Reads a page through REST and checks it shows the mask and never the canary. */
async function readMasked(what: string, path: string, token: string, masked = true) {
  const read = await call<Record<string, unknown> & { items: Record<string, unknown>[] }>("GET", path, {
    token,
  });
  expect(read.status, `${what}: ${read.text}`).toBe(200);
  expect(read.text, what).not.toContain(CANARY);
  if (masked) expect(read.text, what).toContain(MASKED);
  return read;
}

/** What the run writes on every path a person reads, each text carrying the canary. */
async function writeEverywhere({ leased }: Run) {
  const lease = leased.lease;
  const runner = { token: leased.runner.token };
  const published = await call("POST", `/v1/runners/me/leases/${lease.lease_id}/activity`, {
    ...runner,
    body: {
      frames: [
        { tool_call_started: { name: "deploy", args_redacted: `{"token":"${CANARY}"}` } },
        { fleet_response_chunk: { text: `using ${CANARY} now` } },
      ],
    },
  });
  expect(published.status, published.text).toBe(202);
  const memory = await call("PUT", `/v1/runners/me/leases/${lease.lease_id}/memories/creds`, {
    ...runner,
    body: { fencing_token: lease.fencing_token, content: `remember ${CANARY}`, category: `c ${CANARY}` },
  });
  expect(memory.status, memory.text).toBe(200);
  const created = await call("POST", `/v1/runners/me/leases/${lease.lease_id}/schedules`, {
    ...runner,
    body: { fencing_token: lease.fencing_token, cron: "0 9 * * *", message: `rotate ${CANARY}` },
  });
  expect(created.status, created.text).toBe(201);
  const updated = await call("POST", `/v1/runners/me/leases/${lease.lease_id}/schedules`, {
    ...runner,
    body: { fencing_token: lease.fencing_token, cron: "0 10 * * *", message: "plain" },
  });
  expect(updated.status, updated.text).toBe(201);
  const changed = await call(
    "PATCH",
    `/v1/runners/me/leases/${lease.lease_id}/schedules/${updated.body.schedule_id}`,
    { ...runner, body: { fencing_token: lease.fencing_token, message: `now ${CANARY}` } },
  );
  expect(changed.status, changed.text).toBe(200);
  expect(changed.text).not.toContain(CANARY);
  const gate = await openGate(leased, {
    proposed_action: `push with ${CANARY}`,
    evidence: { header: `Bearer ${CANARY}`, [CANARY]: [CANARY] },
  });
  expect(gate.status, gate.text).toBe(201);
  expect(gate.text).not.toContain(CANARY);
  const reported = await report(leased.runner, lease, {
    outcome: "fleet_error",
    response_text: `the key is ${CANARY}`,
    failure_label: `label ${CANARY}`,
    failure_detail: `auth with ${CANARY} was refused`,
    checkpoint_id: `ckpt-${CANARY}`,
    provider: `p-${CANARY}`,
    model: `m-${CANARY}`,
    posture: `posture ${CANARY}`,
  });
  expect(reported.status, reported.text).toBe(200);
  return {
    schedules: [created.body.schedule_id as string, updated.body.schedule_id as string],
    gateId: gate.body.gate_id as string,
  };
}

/** Every REST read of what the run wrote: the canary nowhere, its mask in each. */
async function readEverywhere(owner: Tenant, run: Run, written: Awaited<ReturnType<typeof writeEverywhere>>) {
  const { leased } = run;
  const key = owner.apiKey;
  const event = await readMasked("event", `${fleetPath(owner, leased)}/events/${leased.lease.event_id}`, key);
  expect(event.body).toMatchObject({
    response_text: `the key is ${MASKED}`,
    failure_label: `label ${MASKED}`,
    failure_detail: `auth with ${MASKED} was refused`,
    checkpoint_id: `ckpt-${MASKED}`,
  });
  await readMasked("events", `${fleetPath(owner, leased)}/events`, key);
  const memories = await readMasked("memories", `${fleetPath(owner, leased)}/memories`, key);
  expect(memories.text).toContain(`c ${MASKED}`);
  for (const id of written.schedules)
    await readMasked("schedule", `${fleetPath(owner, leased)}/schedules/${id}`, key);
  const gate = await readMasked(
    "gate",
    `/v1/workspaces/${owner.workspaceId}/approvals/${written.gateId}`,
    key,
  );
  expect(gate.body).toMatchObject({
    proposed_action: `push with ${MASKED}`,
    evidence: { header: `Bearer ${MASKED}`, [MASKED]: [MASKED] },
  });
  const operator = await operatorToken(["runner:read"]);
  const runnerPath = `/v1/fleets/runners/${leased.runner.runnerId}`;
  const leases = await readMasked("runner leases", `${runnerPath}/leases`, operator);
  expect(leases.body.items[0]).toMatchObject({
    failure_label: `label ${MASKED}`,
    failure_detail: `auth with ${MASKED} was refused`,
    provider: `p-${MASKED}`,
    model: `m-${MASKED}`,
    posture: `posture ${MASKED}`,
  });
  await readMasked("lease frames", `${runnerPath}/leases/${leased.lease.lease_id}/frames`, operator);
  await readMasked("runner events", `${runnerPath}/events`, operator, false);
}

describe("one canary through every path a run writes", () => {
  const cases = {
    "as delivered": async () => {},
    "after its secret was replaced": (run: Run) => replaceCanary(run.owner, "rotated_value_9e2c41"),
    "after its secret was deleted": async (run: Run) => {
      const deleted = await call("DELETE", `/v1/workspaces/${run.owner.workspaceId}/secrets/CANARY_TOKEN`, {
        token: run.owner.apiKey,
      });
      expect(deleted.status, deleted.text).toBe(204);
    },
  };
  for (const [when, change] of Object.entries(cases)) {
    it(`masks the delivered value ${when}: frames, memories, schedules, gate, report`, async () => {
      const run = await canaryRun();
      await change(run);
      const stream = await openTail(fleetStream(run.owner, run.leased.fleetId), run.owner.apiKey);
      let written: Awaited<ReturnType<typeof writeEverywhere>>;
      try {
        written = await writeEverywhere(run);
        await stream.next((frame) => frame.event === "event_complete");
        const frames = JSON.stringify(stream.frames);
        expect(frames).not.toContain(CANARY);
        expect(frames).toContain(MASKED);
      } finally {
        stream.close();
      }
      await readEverywhere(run.owner, run, written);
    });
  }
});

describe("the run's masker", () => {
  it("keeps every delivery's values: a second delivery adds to the first", async () => {
    const { owner, leased } = await canaryRun();
    await replaceCanary(owner, "second_value_71a3c9");
    expect((await deliver(leased)).text).toContain("second_value_71a3c9");
    // Neither delivered value is the secret's value any more.
    await replaceCanary(owner, "third_value_0b6d2e");
    const written = await call("PUT", `/v1/runners/me/leases/${leased.lease.lease_id}/memories/all`, {
      token: leased.runner.token,
      body: {
        fencing_token: leased.lease.fencing_token,
        content: `${CANARY} second_value_71a3c9 third_value_0b6d2e`,
      },
    });
    expect(written.status, written.text).toBe(200);
    expect(written.body.content).toBe(`${MASKED} ${MASKED} ${MASKED}`);
  });

  it("masks every value any of concurrent deliveries gave, while the secret is replaced meanwhile", async () => {
    const { owner, leased } = await canaryRun();
    const values = Array.from({ length: 6 }, (_, i) => `concurrent_value_${i}_4f1b`);
    const answers = await Promise.all(
      values.flatMap((value) => [replaceCanary(owner, value).then(() => null), deliver(leased)]),
    );
    const given = new Set([CANARY]);
    for (const answer of answers) {
      const body = answer?.body as { credentials: { data: { token: string } }[] } | undefined;
      if (body !== undefined) given.add(body.credentials[0]!.data.token);
    }
    // The last replace may come after every delivery: a value never given is the secret's value then.
    await replaceCanary(owner, "final_value_never_given");
    const written = await call("PUT", `/v1/runners/me/leases/${leased.lease.lease_id}/memories/race`, {
      token: leased.runner.token,
      body: { fencing_token: leased.lease.fencing_token, content: [...given].join(" ") },
    });
    expect(written.status, written.text).toBe(200);
    expect(written.body.content).toBe([...given].map(() => MASKED).join(" "));
  });

  it("refuses a memory key carrying a secret's value, storing nothing", async () => {
    const { owner, leased } = await canaryRun();
    const refused = await call("PUT", `/v1/runners/me/leases/${leased.lease.lease_id}/memories/k-${CANARY}`, {
      token: leased.runner.token,
      body: { fencing_token: leased.lease.fencing_token, content: "x" },
    });
    expect(refused.status, refused.text).toBe(400);
    expect(refused.body.error_code).toBe("UZ-REQ-001");
    expect(refused.text).not.toContain(CANARY);
    const list = await call("GET", `${fleetPath(owner, leased)}/memories`, { token: owner.apiKey });
    expect(list.status, list.text).toBe(200);
    expect(list.body.items ?? list.body).toHaveLength(0);
  });

  it("masks a delivered value, since replaced, in what people write on the run's fleet: a reason, a grant's gate", async () => {
    const { owner, leased } = await canaryRun();
    const opened = await openGate(leased, { proposed_action: "deploy" });
    expect(opened.status, opened.text).toBe(201);
    await replaceCanary(owner, "rotated_value_9e2c41");
    const denied = await answerGate(owner, opened.body.gate_id, "deny", { reason: `pasted ${CANARY}` });
    expect(denied.status, denied.text).toBe(200);
    const gate = await readGate(owner, opened.body.gate_id);
    expect(gate.status, gate.text).toBe(200);
    expect(gate.text).not.toContain(CANARY);
    expect(gate.body.reason).toBe(`pasted ${MASKED}`);
    const requested = await requestGrant(owner, leased.fleetId, "github", `needs ${CANARY}`);
    expect(requested.status, requested.text).toBe(201);
    const grantGate = await readGate(owner, requested.body.gate_id!);
    expect(grantGate.status, grantGate.text).toBe(200);
    expect(grantGate.text).not.toContain(CANARY);
    expect(grantGate.text).toContain(MASKED);
  });
});
