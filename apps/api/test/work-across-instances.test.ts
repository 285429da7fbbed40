import { describe, expect, it } from "vitest";
import { labelledFleet, messageFleet, uniqueLabel } from "./fleet-fixtures.ts";
import { callAt, databaseKind, seedTenant, startApi, testApi, useIsolatedApi } from "./harness.ts";
import { enrollRunner, type LeaseAnswer } from "./runner-fixtures.ts";

// Instances share work only through PostgreSQL's NOTIFY: PGlite is one process's database.
describe.runIf(databaseKind === "postgres")("work arriving on another instance", () => {
  // Runners lease any tenant's waiting work: this file runs on a database of its own.
  useIsolatedApi();

  it("wakes a runner long-polling one instance when a message is posted through another", async () => {
    const first = await testApi();
    const second = await startApi({ DATABASE_URL: first.config.databaseUrl });
    try {
      const tenant = await seedTenant();
      const label = uniqueLabel();
      const fleetId = await labelledFleet(tenant, label);
      const runner = await enrollRunner({ labels: [label] });

      const waiting = callAt<LeaseAnswer>(second.baseUrl, "POST", "/v1/runners/me/leases", {
        token: runner.token,
        body: { wait_ms: 10_000 },
      }).then((answer) => ({ answer, at: Date.now() }));
      // Past its first look for work: the request is parked on the second instance's signal.
      await new Promise((resolve) => setTimeout(resolve, 300));
      const eventId = await messageFleet(tenant, fleetId, "across instances");
      const posted = Date.now();
      const { answer, at } = await waiting;
      expect(answer.status, answer.text).toBe(200);
      expect(answer.body.lease?.event_id).toBe(eventId);
      // The second instance re-polls every 5 s on its own; only the NOTIFY wakes it this soon.
      expect(at - posted).toBeLessThan(2_000);
    } finally {
      await second.app.close();
      await second.database.close();
    }
  });
});
