import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { leasedFleet, openGate } from "./approval-fixtures.ts";
import { call, seedTenant, sessionFor, testApi, useIsolatedApi } from "./harness.ts";

const dir = mkdtempSync(join(tmpdir(), "fleetctl-listen-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** `fleetctl webhooks listen …` as a person runs it, its stdout read line by line as it goes. */
function listen(args: string[]) {
  const env: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: "warn" };
  for (const name of ["PORT", "API_URL", "PUBLIC_URL"]) delete env[name];
  const child = spawn(
    process.execPath,
    ["--import", "tsx", "src/cli/fleetctl.ts", "webhooks", "listen", ...args],
    {
      cwd: join(import.meta.dirname, ".."),
      env,
    },
  );
  const lines: string[] = [];
  let stderr = "";
  let pending = "";
  const waiters = new Set<() => void>();
  child.stdout.on("data", (chunk: Buffer) => {
    pending += chunk.toString();
    const parts = pending.split("\n");
    pending = parts.pop() ?? "";
    lines.push(...parts.filter((line) => line.length > 0));
    for (const waiter of [...waiters]) waiter();
  });
  child.stderr.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const closed = new Promise<number | null>((resolve) => child.on("close", resolve));
  /** The first printed line, parsed, that `match` accepts. */
  const line = (match: (parsed: Record<string, unknown>) => boolean, timeoutMs = 30_000) =>
    new Promise<Record<string, unknown>>((resolve, reject) => {
      const check = () => {
        for (const text of lines) {
          const parsed = JSON.parse(text) as Record<string, unknown>;
          if (!match(parsed)) continue;
          waiters.delete(check);
          clearTimeout(timer);
          resolve(parsed);
          return;
        }
      };
      const timer = setTimeout(() => {
        waiters.delete(check);
        reject(new Error(`no such line within ${timeoutMs} ms; printed ${lines.join(" | ")}; ${stderr}`));
      }, timeoutMs);
      waiters.add(check);
      check();
    });
  return { child, line, closed, lines, stderr: () => stderr };
}

describe("fleetctl webhooks listen (dev mode: the API takes a local URL)", () => {
  useIsolatedApi({ FLEET_DEV_MODE: "true" });

  it("subscribes a local URL, prints each delivery verified, refuses a forged one, and deletes its endpoint when stopped", {
    timeout: 90_000,
  }, async () => {
    const api = await testApi();
    const owner = await seedTenant();
    const file = join(dir, "owner.json");
    writeFileSync(
      file,
      JSON.stringify({
        api_url: api.baseUrl,
        session_token: await sessionFor(owner, "cli"),
        credential_id: "test",
        expires_at: Date.now() + 3_600_000,
        user_id: owner.userId,
        tenant_id: owner.tenantId,
      }),
    );
    const run = listen(["--events", "gate.opened", "--json", "--credentials-file", file]);
    const started = await run.line((parsed) => typeof parsed.listening === "string");
    expect(started.event_types).toEqual(["gate.opened"]);
    const endpoints = `/v1/workspaces/${owner.workspaceId}/webhook-endpoints`;
    const listed = await call<{ items: { id: string; url: string }[] }>("GET", endpoints, {
      token: owner.apiKey,
    });
    expect(listed.body.items).toEqual([
      expect.objectContaining({ id: started.endpoint_id, url: started.listening }),
    ]);

    // A gate opens: its delivery is printed, its signature verified with the endpoint's secret.
    const gate = await openGate(await leasedFleet(owner));
    expect(gate.status, gate.text).toBe(201);
    const delivered = await run.line(
      (parsed) => (parsed.payload as { data?: { gate_id?: string } })?.data?.gate_id === gate.body.gate_id,
    );
    expect(delivered).toMatchObject({ verified: true, status: 200, payload: { type: "gate.opened" } });

    // A post signed with another secret is printed as not verified and refused.
    const forged = await fetch(String(started.listening), {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "webhook-id": "msg_forged",
        "webhook-timestamp": String(Math.floor(Date.now() / 1000)),
        "webhook-signature": "v1,Zm9yZ2VkIHNpZ25hdHVyZSBvZiBub3RoaW5n",
      },
      body: JSON.stringify({ id: "msg_forged", type: "gate.opened", data: {} }),
    });
    expect(forged.status).toBe(400);
    expect(await run.line((parsed) => parsed.webhook_id === "msg_forged")).toMatchObject({
      verified: false,
      status: 400,
    });

    // Stopped as Ctrl-C stops it: the endpoint is deleted, and what it received is said.
    run.child.kill("SIGINT");
    expect(await run.closed, run.stderr()).toBe(0);
    expect(await run.line((parsed) => parsed.stopped === true)).toMatchObject({
      endpoint_id: started.endpoint_id,
      received: 2,
    });
    const after = await call<{ items: unknown[] }>("GET", endpoints, { token: owner.apiKey });
    expect(after.body.items).toEqual([]);
  });
});
