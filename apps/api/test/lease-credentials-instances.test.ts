import { eq, leases } from "@fleet/db";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gateBody, openGate, readGate } from "./approval-fixtures.ts";
import {
  call,
  callAt,
  databaseKind,
  operatorToken,
  startApi,
  type Tenant,
  type TestApi,
  testApi,
} from "./harness.ts";
import { CANARY, canaryRun, deliver, fleetPath, MASKED, replaceCanary } from "./masking-fixtures.ts";

type Run = Awaited<ReturnType<typeof canaryRun>>;

const deleteCanary = async (owner: Tenant) => {
  const deleted = await call("DELETE", `/v1/workspaces/${owner.workspaceId}/secrets/CANARY_TOKEN`, {
    token: owner.apiKey,
  });
  expect(deleted.status, deleted.text).toBe(204);
};

/** Reads a page through REST (on the first instance): the mask shows, the canary never. */
async function readMasked(what: string, path: string, token: string) {
  const read = await call("GET", path, { token });
  expect(read.status, `${what}: ${read.text}`).toBe(200);
  expect(read.text, what).not.toContain(CANARY);
  expect(read.text, what).toContain(MASKED);
}

// Two instances over one database: PGlite is one process's database, so this runs on PostgreSQL only.
describe.runIf(databaseKind === "postgres")(
  "credentials delivered on one instance, masked on another",
  () => {
    let second: TestApi | null = null;
    beforeAll(async () => {
      const first = await testApi();
      second = await startApi({ DATABASE_URL: first.config.databaseUrl });
    }, 60_000);
    afterAll(async () => {
      await second?.app.close();
      await second?.database.close();
    });

    const onSecond = (run: Run, method: string, path: string, body: Record<string, unknown>) =>
      callAt(second!.baseUrl, method, path, { token: run.leased.runner.token, body });

    /** The run writes the delivered value on every path, each through the second instance. */
    async function writeOnSecond(run: Run) {
      const lease = run.leased.lease;
      const leasePath = `/v1/runners/me/leases/${lease.lease_id}`;
      const fencing_token = lease.fencing_token;
      const frames = await onSecond(run, "POST", `${leasePath}/activity`, {
        frames: [{ fleet_response_chunk: { text: `using ${CANARY} now` } }],
      });
      expect(frames.status, frames.text).toBe(202);
      const memory = await onSecond(run, "PUT", `${leasePath}/memories/creds`, {
        fencing_token,
        content: `remember ${CANARY}`,
      });
      expect(memory.status, memory.text).toBe(200);
      expect(memory.text).not.toContain(CANARY);
      const schedule = await onSecond(run, "POST", `${leasePath}/schedules`, {
        fencing_token,
        cron: "0 9 * * *",
        message: `rotate ${CANARY}`,
      });
      expect(schedule.status, schedule.text).toBe(201);
      const gate = await onSecond(
        run,
        "POST",
        `${leasePath}/gates`,
        gateBody(lease, { proposed_action: `push with ${CANARY}` }),
      );
      expect(gate.status, gate.text).toBe(201);
      expect(gate.text).not.toContain(CANARY);
      const sealed = async () =>
        (
          await second!.database.db
            .select({ sealed: leases.deliveredSealed })
            .from(leases)
            .where(eq(leases.id, lease.lease_id))
        )[0]?.sealed ?? null;
      expect(await sealed()).not.toBeNull();
      const reported = await onSecond(run, "POST", "/v1/runners/me/reports", {
        lease_id: lease.lease_id,
        event_id: lease.event_id,
        fencing_token,
        outcome: "fleet_error",
        response_text: `the key is ${CANARY}`,
        failure_detail: `auth with ${CANARY} was refused`,
      });
      expect(reported.status, reported.text).toBe(200);
      // The lease ended: its sealed copy of the delivered values is wiped with it.
      expect(await sealed()).toBeNull();
      return { scheduleId: schedule.body.schedule_id as string, gateId: gate.body.gate_id as string };
    }

    async function readEverywhere(run: Run, written: Awaited<ReturnType<typeof writeOnSecond>>) {
      const { owner, leased } = run;
      const fleet = fleetPath(owner, leased);
      await readMasked("event", `${fleet}/events/${leased.lease.event_id}`, owner.apiKey);
      await readMasked("memories", `${fleet}/memories`, owner.apiKey);
      await readMasked("schedule", `${fleet}/schedules/${written.scheduleId}`, owner.apiKey);
      await readMasked(
        "gate",
        `/v1/workspaces/${owner.workspaceId}/approvals/${written.gateId}`,
        owner.apiKey,
      );
      const operator = await operatorToken(["runner:read"]);
      const runnerPath = `/v1/fleets/runners/${leased.runner.runnerId}`;
      await readMasked("lease frames", `${runnerPath}/leases/${leased.lease.lease_id}/frames`, operator);
    }

    const changes = {
      replaced: (run: Run) => replaceCanary(run.owner, "rotated_value_3c8e17"),
      deleted: (run: Run) => deleteCanary(run.owner),
    };
    for (const [when, change] of Object.entries(changes)) {
      it(`masks the value delivered on the first once its secret is ${when}: frames, memory, schedule, gate, report`, async () => {
        const run = await canaryRun(); // delivered through the first instance
        await change(run);
        const written = await writeOnSecond(run);
        await readEverywhere(run, written);
      });
    }

    it("masks a delivery on the first at once on the second, whose masker was cached before it", async () => {
      const run = await canaryRun();
      const lease = run.leased.lease;
      const memory = (content: string) =>
        onSecond(run, "PUT", `/v1/runners/me/leases/${lease.lease_id}/memories/m`, {
          fencing_token: lease.fencing_token,
          content,
        });
      // The second instance builds and caches the run's masker (the first value only).
      expect((await memory(`first ${CANARY}`)).body.content).toBe(`first ${MASKED}`);
      await replaceCanary(run.owner, "second_value_8a4d02");
      expect((await deliver(run.leased)).text).toContain("second_value_8a4d02");
      await replaceCanary(run.owner, "third_value_never_given");
      // Within the cached masker's TTL: the second delivery's value is masked all the same.
      const written = await memory(`now second_value_8a4d02 and ${CANARY}`);
      expect(written.status, written.text).toBe(200);
      expect(written.body.content).toBe(`now ${MASKED} and ${MASKED}`);
    });

    it("masks a person's reason on a gate, answered on the second, with what the first delivered", async () => {
      const run = await canaryRun();
      const opened = await openGate(run.leased, { proposed_action: "deploy" });
      expect(opened.status, opened.text).toBe(201);
      await deleteCanary(run.owner);
      const path = `/v1/workspaces/${run.owner.workspaceId}/approvals/${opened.body.gate_id}`;
      const denied = await callAt(second!.baseUrl, "POST", `${path}/deny`, {
        token: run.owner.apiKey,
        body: { reason: `pasted ${CANARY}` },
      });
      expect(denied.status, denied.text).toBe(200);
      const gate = await readGate(run.owner, opened.body.gate_id);
      expect(gate.text).not.toContain(CANARY);
      expect(gate.body.reason).toBe(`pasted ${MASKED}`);
    });
  },
);
