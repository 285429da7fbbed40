import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { beforeAll, describe, expect, it } from "vitest";
import { markEscalations } from "../src/services/approvals/escalate.ts";
import { sweepOverdueGates } from "../src/services/approvals/sweep.ts";
import { verify } from "../src/services/webhooks/signature.ts";
import { leasedFleet, readGate } from "./approval-fixtures.ts";
import {
  answerAs,
  type Body,
  escalatingRule,
  opened,
  people,
  putPolicy,
} from "./approval-policy-fixtures.ts";
import { call, seedTenant, testApi, useIsolatedApi } from "./harness.ts";

// The worker's API starts (and, on PGlite, migrates) in a hook, not inside the first test's time.
beforeAll(async () => {
  await testApi();
}, 60_000);

/** A local receiver of escalation webhooks: every call's headers and raw body. */
async function receiver(answerStatus = 200) {
  const calls: { headers: IncomingHttpHeaders; body: string; at: number }[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      calls.push({ headers: request.headers, body: Buffer.concat(chunks).toString("utf8"), at: Date.now() });
      response.writeHead(answerStatus).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks/escalations?team=ops`,
    calls,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

async function until<T>(read: () => T | undefined | Promise<T | undefined>, ms: number): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`nothing within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe("escalation (dev mode, so the webhook may be a local receiver)", () => {
  useIsolatedApi({ FLEET_DEV_MODE: "true" });

  async function escalatingWorkspace(url: string) {
    const owner = await seedTenant();
    const [first, backup] = await people(owner, 2);
    const minted = await call<{ secret: string }>(
      "POST",
      `/v1/workspaces/${owner.workspaceId}/notice-secret`,
      { token: owner.apiKey },
    );
    expect(minted.status, minted.text).toBe(201);
    const put = await putPolicy(owner, {
      rules: [escalatingRule(first!, backup!)],
      escalation_webhook_url: url,
    });
    expect(put.status, put.text).toBe(200);
    return { owner, first: first!, backup: backup!, secret: minted.body.secret };
  }

  it("the sweeper marks a due gate once and sends a verifiable signed webhook; escalation widens who may answer", {
    timeout: 60_000,
  }, async () => {
    const hook = await receiver();
    try {
      const { owner, backup, secret } = await escalatingWorkspace(hook.url);
      const gate = await opened(await leasedFleet(owner));
      expect(gate.escalated_at).toBeNull();
      const early = await answerAs(owner, backup.token, gate.gate_id, "approve");
      expect(early.status).toBe(403);
      expect(early.body.rule).toBe("escalating");

      const escalateAt = gate.requested_at + 2_000;
      const received = await until(() => hook.calls[0], 10_000);
      // The sweeper runs every 2 s: the escalation goes out within 5 s of its time.
      expect(received.at - escalateAt).toBeLessThan(5_000);
      expect(received.at).toBeGreaterThanOrEqual(escalateAt);
      expect(received.headers["content-type"]).toBe("application/json");
      const headers = {
        timestamp: received.headers["x-signature-timestamp"] as string,
        signature: received.headers["x-signature"] as string,
      };
      expect(verify(secret, headers, received.body, Date.now())).toBe("valid");
      expect(verify(secret, headers, received.body.replace("escalated", "escalatex"), Date.now())).toBe(
        "mismatch",
      );
      const payload = JSON.parse(received.body) as {
        type: string;
        gate: Body;
        console_url: string;
        run_url: string | null;
      };
      expect(payload.type).toBe("approval.escalated");
      // The notice links to the gate in its workspace's inbox, and to its run's page when it has one.
      expect(payload.console_url).toMatch(
        new RegExp(`/approvals\\?workspace=${owner.workspaceId}&gate=${gate.gate_id}$`),
      );
      expect(payload.run_url).toEqual(
        gate.event_id === null
          ? null
          : expect.stringContaining(
              `/fleets/${gate.fleet_id}/runs/${gate.event_id}?workspace=${owner.workspaceId}`,
            ),
      );
      expect(payload.gate).toMatchObject({
        gate_id: gate.gate_id,
        status: "pending",
        rule: "escalating",
        escalated_at: expect.any(Number),
      });
      expect(received.body).not.toContain(secret);

      const read = await readGate(owner, gate.gate_id);
      expect(read.body.escalated_at).toBe(payload.gate.escalated_at);
      // More sweeps, several at once: the gate is escalated and delivered once.
      const api = await testApi();
      await Promise.all([1, 2, 3].map(() => sweepOverdueGates(api.app.services)));
      await new Promise((resolve) => setTimeout(resolve, 2_500));
      expect(hook.calls.filter((c) => c.body.includes(gate.gate_id))).toHaveLength(1);

      const late = await answerAs(owner, backup.token, gate.gate_id, "approve");
      expect(late.status, late.text).toBe(200);
      expect(late.body).toMatchObject({ outcome: "approved", resolved_by: `user:${backup.userId}` });
    } finally {
      await hook.close();
    }
  });

  it("concurrent markings escalate a gate exactly once", { timeout: 60_000 }, async () => {
    const hook = await receiver();
    try {
      const { owner } = await escalatingWorkspace(hook.url);
      const leased = await leasedFleet(owner);
      const ids: string[] = [];
      for (let i = 0; i < 5; i++) ids.push((await opened(leased)).gate_id);
      const api = await testApi();
      const due = (await readGate(owner, ids.at(-1)!)).body.requested_at + 2_000;
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, due - Date.now())));
      const runs = await Promise.all([1, 2, 3, 4].map(() => markEscalations(api.app.services, Date.now())));
      const all = runs.flat();
      expect(new Set(all).size).toBe(all.length); // nobody marked a gate twice
      await until(
        () => (ids.every((id) => hook.calls.some((c) => c.body.includes(id))) ? true : undefined),
        8_000,
      );
      await new Promise((resolve) => setTimeout(resolve, 2_500));
      for (const id of ids) expect(hook.calls.filter((c) => c.body.includes(id))).toHaveLength(1);
    } finally {
      await hook.close();
    }
  });

  it("a failed delivery is retried by the outbox, logged with the origin only, and never undoes the marking", {
    timeout: 30_000,
  }, async () => {
    const hook = await receiver(500);
    try {
      const { owner, secret } = await escalatingWorkspace(hook.url);
      const gate = await opened(await leasedFleet(owner));
      await until(
        async () => ((await readGate(owner, gate.gate_id)).body.escalated_at === null ? undefined : true),
        8_000,
      );
      // The workspace's notice endpoint holds the delivery: an attempt answered 500, another one due.
      const endpoints = await call<{ items: { id: string; managed_by: string | null }[] }>(
        "GET",
        `/v1/workspaces/${owner.workspaceId}/webhook-endpoints`,
        { token: owner.apiKey },
      );
      const notice = endpoints.body.items.find((item) => item.managed_by === "approval_policy");
      expect(notice, endpoints.text).toBeDefined();
      const delivery = await until(async () => {
        const page = await call<{
          items: { type: string; status: string; attempts: { status_code: number | null }[] }[];
        }>("GET", `/v1/workspaces/${owner.workspaceId}/webhook-endpoints/${notice!.id}/deliveries`, {
          token: owner.apiKey,
        });
        const found = page.body.items.find((item) => item.type === "gate.escalated");
        return found !== undefined && found.attempts.length > 0 ? found : undefined;
      }, 8_000);
      expect(delivery.status).toBe("pending");
      expect(delivery.attempts[0]!.status_code).toBe(500);
      expect((await readGate(owner, gate.gate_id)).body.escalated_at).not.toBeNull();
      const api = await testApi();
      const logged = api.logs.filter((line) => line.includes("webhook delivery failed")).join("\n");
      expect(logged).toContain("answered 500");
      expect(logged).not.toContain("team=ops"); // the origin only
      expect(api.logs.join("\n")).not.toContain(secret);
    } finally {
      await hook.close();
    }
  });
});
