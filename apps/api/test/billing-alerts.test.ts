import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { budgetAlerts, eq } from "@fleet/db";
import { describe, expect, it } from "vitest";
import { verify } from "../src/services/webhooks/signature.ts";
import { leaseOne, setBudget, usage, workingFleet } from "./billing-fixtures.ts";
import { call, seedTenant, testApi, useIsolatedApi } from "./harness.ts";
import { report } from "./runner-fixtures.ts";
import { openStream } from "./stream-fixtures.ts";

// Runners lease any tenant's work, and alerts go to a local receiver: a database of its own, in dev mode.
useIsolatedApi({ FLEET_DEV_MODE: "true" });

describe("budget alerts", () => {
  it("each crossed percent goes out exactly once, on the stream and as a signed webhook, under racing usage calls", async () => {
    const hook = await receiver();
    try {
      const tenant = await seedTenant();
      const minted = await call<{ secret: string }>(
        "POST",
        `/v1/workspaces/${tenant.workspaceId}/notice-secret`,
        { token: tenant.apiKey },
      );
      expect(minted.status, minted.text).toBe(201);
      const policy = await call("PUT", `/v1/workspaces/${tenant.workspaceId}/approval-policy`, {
        token: tenant.apiKey,
        body: { rules: [], escalation_webhook_url: hook.url },
      });
      expect(policy.status, policy.text).toBe(200);
      const { fleetId, runner } = await workingFleet(tenant, 2);
      await setBudget(tenant, fleetId, { period_budget_nanos: 1_000, alert_percents: [50, 80, 100] });
      const api = await testApi();
      const stream = await openStream(
        api.baseUrl,
        `/v1/workspaces/${tenant.workspaceId}/fleets/${fleetId}/events/stream?kinds=budget_alert`,
        { token: tenant.apiKey },
      );
      expect(stream.status).toBe(200);
      try {
        const lease = await leaseOne(runner);
        const racing = await Promise.all(
          Array.from({ length: 10 }, () => usage(runner, lease, { cost_nanos: 850 })),
        );
        expect(racing.every((r) => r.status === 200)).toBe(true);
        // The report pushes the spend over 100%, concurrently with more usage calls.
        const [done] = await Promise.all([
          report(runner, lease, { cost_nanos: 1_100 }),
          ...Array.from({ length: 4 }, () => usage(runner, lease, { cost_nanos: 900 })),
        ]);
        expect(done!.status).toBe(200);

        await stream.next((f) => f.event === "budget_alert" && f.data.payload.percent === 100, 10_000);
        const calls = await until(() => (hook.calls.length >= 3 ? hook.calls : undefined), 10_000);
        await new Promise((resolve) => setTimeout(resolve, 300)); // nothing more arrives
        const rows = await api.database.db
          .select()
          .from(budgetAlerts)
          .where(eq(budgetAlerts.fleetId, fleetId));
        expect(rows.map((r) => r.percent).sort((a, b) => a - b)).toEqual([50, 80, 100]);
        const frames = stream.frames.filter((f) => f.event === "budget_alert");
        expect(frames.map((f) => f.data.payload.percent).sort((a: number, b: number) => a - b)).toEqual([
          50, 80, 100,
        ]);
        expect(frames[0]!.data).toMatchObject({ fleet_id: fleetId, workspace_id: tenant.workspaceId });
        expect(hook.calls).toHaveLength(3);
        for (const received of calls) {
          const headers = {
            timestamp: received.headers["x-signature-timestamp"] as string,
            signature: received.headers["x-signature"] as string,
          };
          expect(verify(minted.body.secret, headers, received.body, Date.now())).toBe("valid");
          expect(received.headers["user-agent"]).toBe("fleet-control-plane/budget-alert");
        }
        const payloads = calls.map((c) => JSON.parse(c.body) as Record<string, unknown>);
        expect(payloads.map((p) => p.percent).sort()).toEqual([100, 50, 80]);
        expect(payloads[0]).toMatchObject({
          type: "budget.alert",
          fleet_id: fleetId,
          period_budget_nanos: 1_000,
        });

        // Raising the budget forgets the alerts now out of reach; crossing them again sends them again.
        await setBudget(tenant, fleetId, { period_budget_nanos: 10_000 });
        const kept = await api.database.db
          .select()
          .from(budgetAlerts)
          .where(eq(budgetAlerts.fleetId, fleetId));
        expect(kept).toHaveLength(0);
        const next = await leaseOne(runner);
        expect((await usage(runner, next, { cost_nanos: 4_000 })).status).toBe(200);
        const again = await stream.next(
          (f) => f.event === "budget_alert" && f.data.payload.period_budget_nanos === 10_000,
          10_000,
        );
        expect(again.data.payload).toMatchObject({ percent: 50, period_spend_nanos: 5_100 });
      } finally {
        stream.close();
      }
    } finally {
      await hook.close();
    }
  });
});

/** A local receiver of outgoing webhooks: every call's headers and raw body. */
async function receiver() {
  const calls: { headers: IncomingHttpHeaders; body: string }[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      calls.push({ headers: request.headers, body: Buffer.concat(chunks).toString("utf8") });
      response.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks/budgets`,
    calls,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

async function until<T>(read: () => T | undefined, ms: number): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`nothing within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
