import type { OutputOf } from "@fleet/contracts";
import type { listSecrets } from "@fleet/contracts/secrets/list-secrets";
import { secrets, sql } from "@fleet/db";
import { describe, expect, it } from "vitest";
import { openSecret } from "../src/services/secrets/stored-secrets.ts";
import { call, seedMember, seedTenant, testApi } from "./harness.ts";

const VALUE = "s3cr3t-value-that-must-never-leak";

describe("the secrets vault", () => {
  it("creates, lists (names only), replaces and deletes a workspace's secrets", async () => {
    const tenant = await seedTenant();
    const base = `/v1/workspaces/${tenant.workspaceId}/secrets`;
    const created = await call("POST", base, {
      token: tenant.apiKey,
      body: { name: "GITHUB_TOKEN", data: { token: VALUE } },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: "GITHUB_TOKEN", kind: "generic" });
    expect(created.text).not.toContain(VALUE);

    const list = await call<OutputOf<typeof listSecrets>>("GET", base, {
      token: tenant.apiKey,
    });
    expect(list.status).toBe(200);
    expect(list.body.secrets).toEqual([
      { name: "GITHUB_TOKEN", created_at: created.body.created_at, kind: "generic" },
    ]);
    expect(list.text).not.toContain(VALUE);

    const old = await call("GET", `/v1/workspaces/${tenant.workspaceId}/credentials`, {
      token: tenant.apiKey,
    });
    expect(old.body).toEqual({
      credentials: [{ name: "GITHUB_TOKEN", created_at: created.body.created_at }],
    });

    const replaced = await call("PUT", `${base}/GITHUB_TOKEN`, {
      token: tenant.apiKey,
      body: { data: { token: "rotated" } },
    });
    expect(replaced.status).toBe(200);
    expect(replaced.body).toEqual({ name: "GITHUB_TOKEN" });
    const api = await testApi();
    expect(await openSecret(api.app.services, tenant.workspaceId, "GITHUB_TOKEN")).toEqual({
      token: "rotated",
    });

    expect((await call("DELETE", `${base}/GITHUB_TOKEN`, { token: tenant.apiKey })).status).toBe(204);
    const gone = await call("PUT", `${base}/GITHUB_TOKEN`, {
      token: tenant.apiKey,
      body: { data: { a: 1 } },
    });
    expect(gone.status).toBe(404);
    expect(gone.body.error_code).toBe("UZ-VAULT-003");
    expect((await call("DELETE", `${base}/GITHUB_TOKEN`, { token: tenant.apiKey })).body.error_code).toBe(
      "UZ-VAULT-003",
    );
  });

  it("refuses empty, oversized and malformed bodies, changing nothing", async () => {
    const tenant = await seedTenant();
    const base = `/v1/workspaces/${tenant.workspaceId}/secrets`;
    const empty = await call("POST", base, { token: tenant.apiKey, body: { name: "A", data: {} } });
    expect(empty.status).toBe(400);
    expect(empty.body.error_code).toBe("UZ-VAULT-001");
    const big = await call("POST", base, {
      token: tenant.apiKey,
      body: { name: "A", data: { v: "x".repeat(4100) } },
    });
    expect(big.status).toBe(400);
    expect(big.body.error_code).toBe("UZ-VAULT-001");
    const justUnder = await call("POST", base, {
      token: tenant.apiKey,
      body: { name: "B", data: { v: "x".repeat(4096 - 8) } },
    });
    expect(justUnder.status).toBe(201);
    for (const body of [
      { name: "9bad", data: { a: 1 } },
      { name: "A", data: "text" },
      { name: "A", data: [1] },
      { name: "A" },
    ]) {
      const response = await call("POST", base, { token: tenant.apiKey, body });
      expect(response.status, JSON.stringify(body)).toBe(400);
    }
    const list = await call<OutputOf<typeof listSecrets>>("GET", base, { token: tenant.apiKey });
    expect(list.body.secrets).toHaveLength(1);
  });

  it("gives one 201 and 409 UZ-VAULT-005 to concurrent creates of one name", async () => {
    const tenant = await seedTenant();
    const base = `/v1/workspaces/${tenant.workspaceId}/secrets`;
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        call("POST", base, { token: tenant.apiKey, body: { name: "RACED", data: { i } } }),
      ),
    );
    expect(answers.filter((a) => a.status === 201)).toHaveLength(1);
    const conflicts = answers.filter((a) => a.status === 409);
    expect(conflicts).toHaveLength(9);
    for (const conflict of conflicts) expect(conflict.body.error_code).toBe("UZ-VAULT-005");
  });

  it("stores values only sealed, bound to their workspace and name", async () => {
    const tenant = await seedTenant();
    const base = `/v1/workspaces/${tenant.workspaceId}/secrets`;
    await call("POST", base, { token: tenant.apiKey, body: { name: "FIRST", data: { token: VALUE } } });
    await call("POST", base, { token: tenant.apiKey, body: { name: "SECOND", data: { token: "other" } } });
    const api = await testApi();
    const rows = await api.database.query(
      `select * from secrets where workspace_id = '${tenant.workspaceId}'`,
    );
    expect(JSON.stringify(rows)).not.toContain(VALUE);
    expect(JSON.stringify(rows)).not.toContain(Buffer.from(VALUE).toString("base64"));
    // Moving FIRST's sealed value onto SECOND's row does not open it.
    await api.database.db.execute(
      sql`update ${secrets} set wrapped_key = f.wrapped_key, ciphertext = f.ciphertext from ${secrets} f
          where ${secrets.workspaceId} = ${tenant.workspaceId} and ${secrets.name} = 'SECOND'
            and f.workspace_id = ${tenant.workspaceId} and f.name = 'FIRST'`,
    );
    await expect(openSecret(api.app.services, tenant.workspaceId, "SECOND")).rejects.toMatchObject({
      code: "UZ-VAULT-002",
    });
    expect(await openSecret(api.app.services, tenant.workspaceId, "FIRST")).toEqual({ token: VALUE });
  });

  it("never writes a value to the log, and needs secret:read / secret:write", async () => {
    const tenant = await seedTenant();
    const reader = await seedMember(tenant, ["secret:read"]);
    const base = `/v1/workspaces/${tenant.workspaceId}/secrets`;
    const refused = await call("POST", base, {
      token: reader.token,
      body: { name: "X", data: { token: VALUE } },
    });
    expect(refused.status).toBe(403);
    expect(refused.text).not.toContain(VALUE);
    expect((await call("GET", base, { token: reader.token })).status).toBe(200);
    await call("POST", base, { token: tenant.apiKey, body: { name: "LOGGED", data: { token: VALUE } } });
    await call("POST", base, { token: tenant.apiKey, body: { name: "LOGGED", data: { token: VALUE } } }); // 409
    await call("PUT", `${base}/LOGGED`, {
      token: tenant.apiKey,
      body: { data: { token: VALUE, extra: "x".repeat(5000) } },
    });
    const api = await testApi();
    expect(api.logs.join("\n")).not.toContain(VALUE);
  });
});
