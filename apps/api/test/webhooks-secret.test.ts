import type { OutputOf } from "@fleet/contracts";
import type { listWorkspaceAudit } from "@fleet/contracts/audit/list-workspace-audit";
import type { getWebhookSecret } from "@fleet/contracts/webhooks/get-webhook-secret";
import type { rotateWebhookSecret } from "@fleet/contracts/webhooks/rotate-webhook-secret";
import { eq, webhookSecrets } from "@fleet/db";
import { beforeAll, describe, expect, it } from "vitest";
import { workspaceWebhookSecret } from "../src/services/webhooks/secret.ts";
import { mintWebhookSecret } from "./grant-fixtures.ts";
import { call, seedMember, seedTenant, type Tenant, testApi } from "./harness.ts";

// The worker's API (and on PGlite its database) starts before the first test's clock runs.
beforeAll(async () => {
  await testApi();
}, 60_000);

type Minted = OutputOf<typeof rotateWebhookSecret>;
type State = OutputOf<typeof getWebhookSecret>;

function secretPath(tenant: Tenant) {
  return `/v1/workspaces/${tenant.workspaceId}/webhook-secret`;
}

describe("workspace webhook secret", () => {
  it("is minted once, shown once, stored sealed, and read back only as configured", async () => {
    const api = await testApi();
    const tenant = await seedTenant();
    const before = await call<State>("GET", secretPath(tenant), { token: tenant.apiKey });
    expect(before.status, before.text).toBe(200);
    expect(before.body).toEqual({ configured: false, created_at: null });
    expect(
      await workspaceWebhookSecret(api.database.db, api.app.services.vault, tenant.workspaceId, "incoming"),
    ).toBeNull();

    const minted = await call<Minted>("POST", secretPath(tenant), { token: tenant.apiKey });
    expect(minted.status, minted.text).toBe(201);
    expect(minted.headers.get("cache-control")).toBe("no-store");
    expect(minted.body.secret).toMatch(/^agt_w[A-Za-z0-9_-]{43}$/);

    const after = await call<State>("GET", secretPath(tenant), { token: tenant.apiKey });
    expect(after.body).toEqual({ configured: true, created_at: minted.body.created_at });
    expect(after.text).not.toContain(minted.body.secret);

    const [row] = await api.database.db
      .select()
      .from(webhookSecrets)
      .where(eq(webhookSecrets.workspaceId, tenant.workspaceId));
    expect(JSON.stringify(row)).not.toContain(minted.body.secret.slice(5));
    expect(
      await workspaceWebhookSecret(api.database.db, api.app.services.vault, tenant.workspaceId, "incoming"),
    ).toBe(minted.body.secret);
    expect(api.logs.join("\n")).not.toContain(minted.body.secret);
  });

  it("rotates: the new secret replaces the old at once, and each rotation is audited with its request", async () => {
    const api = await testApi();
    const tenant = await seedTenant();
    const first = await mintWebhookSecret(tenant);
    const rotated = await call<Minted>("POST", secretPath(tenant), { token: tenant.apiKey });
    expect(rotated.status).toBe(201);
    expect(rotated.body.secret).not.toBe(first);
    expect(
      await workspaceWebhookSecret(api.database.db, api.app.services.vault, tenant.workspaceId, "incoming"),
    ).toBe(rotated.body.secret);
    const audit = await call<OutputOf<typeof listWorkspaceAudit>>(
      "GET",
      `/v1/workspaces/${tenant.workspaceId}/audit?action=webhook_secret.rotate`,
      { token: tenant.apiKey },
    );
    expect(audit.status, audit.text).toBe(200);
    expect(audit.body.items.map((row) => row.details)).toEqual([{ replaced: true }, { replaced: false }]);
    expect(audit.body.items[0]).toMatchObject({
      actor: expect.stringMatching(/^api_key:/),
      target: `workspace:${tenant.workspaceId}`,
      request_id: rotated.headers.get("x-request-id"),
    });
    expect(audit.text).not.toContain(first);
    expect(audit.text).not.toContain(rotated.body.secret);
  });

  it("concurrent rotations leave exactly one secret in force, the one the last commit minted", async () => {
    const api = await testApi();
    const tenant = await seedTenant();
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => call<Minted>("POST", secretPath(tenant), { token: tenant.apiKey })),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(6).fill(201));
    const inForce = await workspaceWebhookSecret(
      api.database.db,
      api.app.services.vault,
      tenant.workspaceId,
      "incoming",
    );
    expect(answers.map((a) => a.body.secret)).toContain(inForce);
    const state = await call<State>("GET", secretPath(tenant), { token: tenant.apiKey });
    const minted = answers.find((a) => a.body.secret === inForce)!;
    expect(state.body.created_at).toBe(minted.body.created_at);
  });

  it("needs workspace:admin; another tenant's workspace is 404", async () => {
    const tenant = await seedTenant();
    const member = await seedMember(tenant, ["fleet:write", "secret:write"]);
    const refused = await call("POST", secretPath(tenant), { token: member.token });
    expect(refused.status).toBe(403);
    expect(refused.body.error_code).toBe("UZ-AUTH-022");
    const stranger = await seedTenant();
    const theirs = await call("POST", secretPath(tenant), { token: stranger.apiKey });
    expect(theirs.status).toBe(404);
    const state = await call<State>("GET", secretPath(tenant), { token: tenant.apiKey });
    expect(state.body.configured).toBe(false);
  });

  it("takes no body on rotation", async () => {
    const tenant = await seedTenant();
    const refused = await call("POST", secretPath(tenant), {
      token: tenant.apiKey,
      body: { secret: "mine" },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error_code).toBe("UZ-REQ-001");
  });
});
