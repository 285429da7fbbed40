import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runFleetctl } from "./fleetctl-fixtures.ts";
import { call, seedTenant, sessionFor, testApi } from "./harness.ts";

/** `fleetctl <args> --json`; `onStderr` sees what it tells the person as it goes. */
function fleetctl(args: string[], onStderr: (text: string) => void) {
  return { exited: runFleetctl([...args, "--json"], undefined, onStderr) };
}

describe("fleetctl login against a running API", () => {
  it("signs in through the device flow, stores the credential owner-only, and logout revokes it", async () => {
    const api = await testApi();
    const tenant = await seedTenant();
    const session = await sessionFor(tenant);
    const dir = mkdtempSync(join(tmpdir(), "fleet-login-"));
    const file = join(dir, "nested", "credentials.json");
    try {
      let approved: Promise<unknown> | null = null;
      const run = fleetctl(
        ["login", "--api-url", api.baseUrl, "--name", "fleetctl test", "--credentials-file", file],
        (text) => {
          const code = /code ([A-Z]{4}-[A-Z]{4})/.exec(text)?.[1];
          if (code === undefined || approved !== null) return;
          expect(text).toContain(`/device?code=${code}`);
          approved = call("POST", "/v1/auth/sessions/approve", { token: session, body: { user_code: code } });
        },
      );
      const { code, stdout, stderr } = await run.exited;
      expect(code, stderr).toBe(0);
      expect((await approved!) as { status: number }).toMatchObject({ status: 200 });
      const printed = JSON.parse(stdout);
      expect(printed).toMatchObject({ signed_in: true, user_id: tenant.userId, credentials_file: file });
      expect(stdout).not.toMatch(/eyJ/); // the token is in the file, not on the terminal
      expect(statSync(file).mode & 0o777).toBe(0o600);
      const stored = JSON.parse(readFileSync(file, "utf8"));
      expect(stored.api_url).toBe(api.baseUrl);
      const me = await call("GET", "/v1/users/me", { token: stored.session_token });
      expect(me.body).toMatchObject({ credential: "cli_credential", user_id: tenant.userId });

      const out = await fleetctl(["logout", "--credentials-file", file], () => {}).exited;
      expect(out.code, out.stderr).toBe(0);
      expect((await call("GET", "/v1/users/me", { token: stored.session_token })).status).toBe(401);
      expect(() => statSync(file)).toThrow();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 180_000);

  it("stops with a plain sentence when the person denies", async () => {
    const api = await testApi();
    const session = await sessionFor(await seedTenant());
    let denied = false;
    const { code, stderr } = await fleetctl(
      ["login", "--api-url", api.baseUrl, "--credentials-file", join(tmpdir(), "never-written.json")],
      (text) => {
        const userCode = /code ([A-Z]{4}-[A-Z]{4})/.exec(text)?.[1];
        if (userCode === undefined || denied) return;
        denied = true;
        void call("POST", "/v1/auth/sessions/deny", { token: session, body: { user_code: userCode } });
      },
    ).exited;
    expect(code).toBe(1);
    expect(stderr).toContain("fleetctl: the sign-in was denied");
  }, 180_000);
});
