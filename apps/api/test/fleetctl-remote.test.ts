import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { leasedFleet, openGate } from "./approval-fixtures.ts";
import { runFleetctl } from "./fleetctl-fixtures.ts";
import { call, seedMember, seedTenant, sessionFor, testApi } from "./harness.ts";

const dir = mkdtempSync(join(tmpdir(), "fleetctl-remote-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The environment of a shell that says nothing of where the API is. */
function plainEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: "warn", ...extra };
  for (const name of ["PORT", "API_URL", "PUBLIC_URL"]) if (!(name in extra)) delete env[name];
  return env;
}

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe("fleetctl with the saved credential, against a running API", () => {
  it("login finds the API by PORT; whoami, fleets list, send, approvals list and approve use the credential; a second approve says who answered first", async () => {
    const api = await testApi();
    const owner = await seedTenant();
    const leased = await leasedFleet(owner);
    const opened = await openGate(leased);
    expect(opened.status, opened.text).toBe(201);
    const gateId = opened.body.gate_id;
    const file = join(dir, "owner.json");
    const session = await sessionFor(owner);
    const port = new URL(api.baseUrl).port;

    // No --api-url: PORT says where the API is, as for the rest of fleetctl.
    let approved: Promise<unknown> | null = null;
    const signedIn = await runFleetctl(
      ["login", "--credentials-file", file, "--json"],
      plainEnv({ PORT: port }),
      (text) => {
        const code = /code ([A-Z]{4}-[A-Z]{4})/.exec(text)?.[1];
        if (code === undefined || approved !== null) return;
        approved = call("POST", "/v1/auth/sessions/approve", { token: session, body: { user_code: code } });
      },
    );
    expect(signedIn.code, signedIn.stderr).toBe(0);
    expect(JSON.parse(signedIn.stdout)).toMatchObject({
      signed_in: true,
      api_url: `http://localhost:${port}`,
    });

    // From here nothing in the environment: the saved credential's API.
    const as = (...args: string[]) => runFleetctl([...args, "--credentials-file", file], plainEnv());
    const me = await as("whoami");
    expect(me.code, me.stderr).toBe(0);
    expect(me.stdout).toContain(`${owner.email} in `);
    expect(me.stdout).toContain(`at http://localhost:${port}`);

    const fleets = await as("fleets", "list");
    expect(fleets.code, fleets.stderr).toBe(0);
    expect(fleets.stdout).toContain(leased.fleetId);

    // A second workspace: from here the fleet's and the gate's ids say which workspace they are in.
    const second = await call("POST", "/v1/workspaces", { token: owner.apiKey, body: { name: "Second" } });
    expect(second.status, second.text).toBe(201);

    const sent = await as("send", "--fleet", leased.fleetId.toUpperCase(), "--message", "from the terminal");
    expect(sent.code, sent.stderr).toBe(0);
    const eventId = /^sent: event ([0-9a-f-]{36})$/m.exec(sent.stdout)?.[1] ?? "";
    // The run's page in the console that approved the sign-in, with its workspace.
    expect(sent.stdout).toContain(
      `follow the run: ${api.config.consoleUrl}/fleets/${leased.fleetId}/runs/${eventId}?workspace=${owner.workspaceId}`,
    );
    const event = await call(
      "GET",
      `/v1/workspaces/${owner.workspaceId}/fleets/${leased.fleetId}/events/${eventId}`,
      {
        token: owner.apiKey,
      },
    );
    expect(event.status).toBe(200);

    // A list names its workspace once there are several; a gate's id finds its own.
    const unnamed = await as("approvals", "list");
    expect(unnamed.code).toBe(1);
    expect(unnamed.stderr).toContain("name the workspace with --workspace ID; this tenant has 2:");
    const inbox = await as("approvals", "list", "--workspace", owner.workspaceId);
    expect(inbox.code, inbox.stderr).toBe(0);
    expect(inbox.stdout).toMatch(new RegExp(`^${gateId} +pending `, "m"));

    const approve = await as("approve", gateId, "--reason", "checked the diff");
    expect(approve.code, approve.stderr).toBe(0);
    expect(approve.stdout.trim()).toBe(`approved: gate ${gateId}`);
    const gate = await call("GET", `/v1/workspaces/${owner.workspaceId}/approvals/${gateId}`, {
      token: owner.apiKey,
    });
    expect(gate.body).toMatchObject({ status: "approved", resolved_by: `user:${owner.userId}` });

    // First answer wins: the second says by whom, and fails.
    const again = await as("approve", gateId);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(
      new RegExp(
        `^fleetctl: already approved by user:${owner.userId}; the first answer stands \\[409 UZ-APPROVAL-006\\] \\(request_id [0-9a-f-]{36}\\)$`,
        "m",
      ),
    );
  }, 420_000);

  it("refuses a member without approval:resolve with the API's problem, and exits 1", async () => {
    const api = await testApi();
    const owner = await seedTenant();
    const opened = await openGate(await leasedFleet(owner));
    const viewer = await seedMember(owner, ["approval:read", "fleet:read"]);
    const file = join(dir, "viewer.json");
    // The credential file as login writes it, holding the member's command-line session.
    writeFileSync(
      file,
      JSON.stringify({
        api_url: api.baseUrl,
        session_token: viewer.token,
        credential_id: "unused",
        expires_at: Date.now() + 3_600_000,
        user_id: viewer.userId,
        tenant_id: owner.tenantId,
      }),
      { mode: 0o600 },
    );
    const listed = await runFleetctl(
      ["approvals", "list", "--workspace", owner.workspaceId, "--credentials-file", file],
      plainEnv(),
    );
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toContain(opened.body.gate_id);

    const refused = await runFleetctl(
      ["approve", opened.body.gate_id, "--workspace", owner.workspaceId, "--credentials-file", file],
      plainEnv(),
    );
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(
      /^fleetctl: Missing scope: .*approval:resolve.* \[403 UZ-AUTH-\d+\] \(request_id [0-9a-f-]{36}\)$/m,
    );
    const gate = await call("GET", `/v1/workspaces/${owner.workspaceId}/approvals/${opened.body.gate_id}`, {
      token: owner.apiKey,
    });
    expect(gate.body).toMatchObject({ status: "pending" });
  }, 420_000);

  it("names the URL it tried when nothing answers there", async () => {
    const port = await closedPort();
    const login = await runFleetctl(
      ["login", "--credentials-file", join(dir, "never.json")],
      plainEnv({ PORT: String(port) }),
    );
    expect(login.code).toBe(1);
    expect(login.stderr).toContain(`fleetctl: could not reach the API at http://localhost:${port} (`);
    expect(login.stderr).not.toContain("fetch failed");

    const whoami = await runFleetctl(["whoami", "--credentials-file", join(dir, "never.json")], plainEnv());
    expect(whoami.code).toBe(1);
    expect(whoami.stderr).toContain("fleetctl: not signed in: run fleetctl login first");
  }, 180_000);
});
