import { type ChildProcess, execFile, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { freePort } from "@fleet/testing/free-port";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callAt, databaseKind } from "./harness.ts";

const run = promisify(execFile);
const apiDir = join(import.meta.dirname, "..");
const dir = mkdtempSync(join(tmpdir(), "fleet-ctl-"));
const env = { ...process.env, DATABASE_URL: `pglite://${dir}`, LOG_LEVEL: "warn" };
let server: ChildProcess;
let baseUrl = "";

async function fleetctl(...args: string[]): Promise<Record<string, string>> {
  const { stdout } = await run(
    process.execPath,
    ["--import", "tsx", "src/cli/fleetctl.ts", ...args, "--json"],
    { cwd: apiDir, env },
  );
  return JSON.parse(stdout);
}

/** fleetctl against a running API on the embedded database: the command runs inside the API. */
describe.runIf(databaseKind === "pglite")("fleetctl beside a running API", () => {
  beforeAll(async () => {
    const port = await freePort();
    baseUrl = `http://127.0.0.1:${port}`;
    server = spawn(process.execPath, ["scripts/start.mjs"], {
      cwd: apiDir,
      env: { ...env, PORT: String(port) },
    });
    const deadline = Date.now() + 60_000;
    for (;;) {
      const ready = await fetch(`${baseUrl}/readyz`).then(
        (r) => r.ok,
        () => false,
      );
      if (ready) break;
      if (Date.now() > deadline) throw new Error("the API did not start");
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }, 90_000);

  afterAll(() => {
    server.kill("SIGKILL");
    rmSync(dir, { recursive: true, force: true });
  });

  it("serves concurrent commands, and their changes reach requests at once", async () => {
    const first = await fleetctl("bootstrap", "--tenant", "T1", "--email", "owner1@example.test");
    const others = await Promise.all(
      [2, 3, 4].map((i) => fleetctl("bootstrap", "--tenant", `T${i}`, "--email", `owner${i}@example.test`)),
    );
    const tenants = [first, ...others];
    for (const tenant of tenants) {
      const me = await callAt(baseUrl, "GET", "/v1/users/me", { token: tenant.api_key });
      expect(me.body.tenant_id).toBe(tenant.tenant_id);
    }
    expect((await callAt(baseUrl, "GET", "/v1/api-keys", { token: first.api_key })).status).toBe(200);
    await fleetctl(
      "member",
      "add",
      "--tenant-id",
      first.tenant_id!,
      "--email",
      "owner1@example.test",
      "--scopes",
      "fleet:read",
    );
    const narrowed = await callAt(baseUrl, "GET", "/v1/api-keys", { token: first.api_key });
    expect(narrowed.status).toBe(403);
    // The owner stays an owner: a sign-in link is still issued for the tenant's first owner.
    const link = await fleetctl("first-run");
    expect(link.owner).toBe("owner1@example.test");
  }, 60_000);

  it("mints session and operator tokens, sign-in links and migrates, beside the running API", async () => {
    const tenant = await fleetctl("bootstrap", "--tenant", "Tokens", "--email", "tokens@example.test");
    const before = Date.now();
    const session = await fleetctl("session", "--email", "tokens@example.test", "--ttl", "120");
    const expiresAt = Number(session.expires_at);
    expect(expiresAt).toBeGreaterThanOrEqual(before + 110_000);
    expect(expiresAt).toBeLessThanOrEqual(Date.now() + 130_000);
    const me = await callAt(baseUrl, "GET", "/v1/users/me", { token: session.token });
    expect(me.body).toMatchObject({ credential: "cli_credential", tenant_id: tenant.tenant_id });

    const operator = await fleetctl("operator", "--scopes", "runner:read");
    expect((await callAt(baseUrl, "GET", "/v1/fleets/runners", { token: operator.token })).status).toBe(200);
    expect((await callAt(baseUrl, "GET", "/v1/users/me", { token: operator.token })).status).toBe(401);

    const link = await fleetctl("login-link", "--email", "tokens@example.test");
    expect(link.url).toMatch(/^http:\/\/[^/]+\/auth\/link\?token=[A-Za-z0-9_-]{43}$/);

    const tooLong = await run(
      process.execPath,
      [
        "--import",
        "tsx",
        "src/cli/fleetctl.ts",
        "session",
        "--email",
        "tokens@example.test",
        "--ttl",
        "99999999",
      ],
      { cwd: apiDir, env },
    ).catch((error: { code: number; stderr: string }) => error);
    expect((tooLong as { code: number }).code).toBe(1);
    expect((tooLong as { stderr: string }).stderr).toContain(
      "--ttl must be a whole number from 1 to 2592000",
    );

    await expect(fleetctl("migrate")).resolves.toBeDefined();
  }, 60_000);

  it("prints clean JSON from the documented `pnpm fleetctl … --json` at the repository root", async () => {
    // The README and the console's Runners page give this command; its output is piped to jq.
    const { stdout } = await run("pnpm", ["fleetctl", "operator", "--scopes", "runner:admin", "--json"], {
      cwd: join(apiDir, "..", ".."),
      env,
    });
    const operator = JSON.parse(stdout) as { token: string };
    expect((await callAt(baseUrl, "GET", "/v1/fleets/runners", { token: operator.token })).status).toBe(200);
  }, 60_000);

  it("reports a refused command on stderr with a non-zero exit", async () => {
    const failure = await run(
      process.execPath,
      [
        "--import",
        "tsx",
        "src/cli/fleetctl.ts",
        "member",
        "add",
        "--tenant-id",
        "nope",
        "--email",
        "x@example.test",
        "--scopes",
        "fleet:read",
      ],
      { cwd: apiDir, env },
    ).catch((error: { code: number; stderr: string }) => error);
    expect((failure as { code: number }).code).toBe(1);
    expect((failure as { stderr: string }).stderr).toContain("tenant id must be a UUID");
  });
});
