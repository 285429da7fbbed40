import type { OutputOf } from "@fleet/contracts";
import type { createApiKey } from "@fleet/contracts/api-keys/create-api-key";
import type { inviteMember } from "@fleet/contracts/members/invite-member";
import type { listMembers } from "@fleet/contracts/members/list-members";
import { describe, expect, it } from "vitest";
import { call, seedMember, seedTenant, type Tenant, testApi } from "./harness.ts";

type Page = OutputOf<typeof listMembers>;
type Invitation = OutputOf<typeof inviteMember>;
const MEMBERS = "/v1/tenants/me/members";

async function allMembers(token: string, limit = 50): Promise<Page["items"]> {
  const items: Page["items"] = [];
  let cursor: string | null = null;
  do {
    const query: string = cursor === null ? `?limit=${limit}` : `?limit=${limit}&starting_after=${cursor}`;
    const page = await call<Page>("GET", `${MEMBERS}${query}`, { token });
    expect(page.status, page.text).toBe(200);
    items.push(...page.body.items);
    cursor = page.body.next_cursor;
  } while (cursor !== null);
  return items;
}

async function auditCount(tenantId: string, action: string, target: string): Promise<number> {
  const api = await testApi();
  const rows = await api.database.query<{ n: number }>(
    "select count(*)::int as n from audit_events where tenant_id = $1 and action = $2 and target = $3",
    [tenantId, action, target],
  );
  return rows[0]!.n;
}

/** A second owner of the tenant, made over REST by the first, with a command-line session. */
async function secondOwner(tenant: Tenant) {
  const person = await seedMember(tenant, ["workspace:admin"]);
  const promoted = await call("PATCH", `${MEMBERS}/${person.userId}`, {
    token: tenant.apiKey,
    body: { role: "owner" },
  });
  expect(promoted.status, promoted.text).toBe(200);
  expect(promoted.body).toMatchObject({ role: "owner" });
  return person;
}

describe("tenant members", () => {
  it("lists the tenant's members oldest first, cursor-paged, and never another tenant's", async () => {
    const tenant = await seedTenant();
    const other = await seedTenant();
    const stranger = await seedMember(other, ["fleet:read"]);
    const seeded = [];
    for (let i = 0; i < 4; i += 1) seeded.push(await seedMember(tenant, ["fleet:read"]));
    const first = await call<Page>("GET", `${MEMBERS}?limit=2`, { token: tenant.apiKey });
    expect(first.status).toBe(200);
    expect(first.body.total).toBe(5);
    expect(first.body.items).toHaveLength(2);
    expect(first.body.items[0]).toMatchObject({ user_id: tenant.userId, email: tenant.email, role: "owner" });
    expect(Object.keys(first.body.items[0]!).sort()).toEqual([
      "created_at",
      "display_name",
      "email",
      "role",
      "scopes",
      "user_id",
    ]);
    const all = await allMembers(tenant.apiKey, 2);
    expect(all.map((m) => m.user_id)).toEqual([tenant.userId, ...seeded.map((m) => m.userId)]);
    expect(all.map((m) => m.user_id)).not.toContain(stranger.userId);
    expect(all.slice(1).every((m) => m.role === "member" && m.scopes.join() === "fleet:read")).toBe(true);

    const foreign = await call("GET", `${MEMBERS}?starting_after=${first.body.next_cursor}`, {
      token: other.apiKey,
    });
    expect(foreign.status).toBe(200); // a cursor names a position, not a tenant: the page is still theirs
    expect(JSON.stringify(foreign.body)).not.toContain(tenant.userId);
    const keysCursor = await call<{ next_cursor: string }>("GET", "/v1/api-keys?limit=1", {
      token: tenant.apiKey,
    });
    const bogus = await call("GET", `${MEMBERS}?starting_after=bm90LWEtY3Vyc29y`, { token: tenant.apiKey });
    expect(bogus.status).toBe(400);
    expect(bogus.body.error_code).toBe("UZ-REQ-001");
    if (keysCursor.body.next_cursor !== null) {
      const misplaced = await call("GET", `${MEMBERS}?starting_after=${keysCursor.body.next_cursor}`, {
        token: tenant.apiKey,
      });
      expect(misplaced.status).toBe(400);
    }
  });

  it("invites by email with scopes: the link signs the person in once, holding exactly those scopes", async () => {
    const tenant = await seedTenant();
    const email = `Invited-${Date.now()}-${Math.random().toString(36).slice(2)}@Example.test`;
    const invited = await call<Invitation>("POST", MEMBERS, {
      token: tenant.apiKey,
      body: { email, scopes: ["fleet:read", "approval:read", "fleet:read"] },
    });
    expect(invited.status, invited.text).toBe(201);
    expect(invited.headers.get("cache-control")).toBe("no-store");
    expect(invited.body.member).toMatchObject({
      email: email.toLowerCase(),
      role: "member",
      scopes: ["fleet:read", "approval:read"],
    });
    const token = new URL(invited.body.sign_in_url).searchParams.get("token")!;
    expect(token.length).toBeGreaterThan(20);
    expect(await auditCount(tenant.tenantId, "member.invite", `user:${invited.body.member.user_id}`)).toBe(1);

    const exchanged = await call<{ session_token: string; user_id: string }>(
      "POST",
      "/v1/auth/sign-in-links/exchange",
      { body: { token } },
    );
    expect(exchanged.status, exchanged.text).toBe(200);
    expect(exchanged.body.user_id).toBe(invited.body.member.user_id);
    const again = await call("POST", "/v1/auth/sign-in-links/exchange", { body: { token } });
    expect(again.status).toBe(401);
    expect(again.body.error_code).toBe("UZ-AUTH-010");

    const me = await call("GET", "/v1/users/me", { token: exchanged.body.session_token });
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ tenant_id: tenant.tenantId, email: email.toLowerCase() });
    expect((me.body.scopes as string[]).sort()).toEqual(["approval:read", "fleet:read"]);
    const refused = await call("GET", MEMBERS, { token: exchanged.body.session_token });
    expect(refused.status).toBe(403);
    expect(refused.body.error_code).toBe("UZ-AUTH-022");

    const twice = await call("POST", MEMBERS, {
      token: tenant.apiKey,
      body: { email, scopes: [] },
    });
    expect(twice.status).toBe(409);
    expect(twice.body).toMatchObject({ error_code: "UZ-MEMBER-003", current_state: "member" });
    expect(twice.text).not.toContain("token=");
  });

  it("refuses to grant scopes the inviter does not hold, or the owner role to a non-owner, writing nothing", async () => {
    const tenant = await seedTenant();
    const admin = await seedMember(tenant, ["workspace:admin", "fleet:write"]);
    const email = `up-${Date.now()}-${Math.random().toString(36).slice(2)}@example.test`;
    const above = await call("POST", MEMBERS, {
      token: admin.token,
      body: { email, scopes: ["fleet:read", "fleet:admin", "secret:write"] },
    });
    expect(above.status).toBe(403);
    expect(above.body.error_code).toBe("UZ-AUTH-022");
    expect(above.body.detail).toContain("fleet:admin, secret:write");
    const owner = await call("POST", MEMBERS, {
      token: admin.token,
      body: { email, scopes: [], role: "owner" },
    });
    expect(owner.status).toBe(403);
    expect(owner.body.error_code).toBe("UZ-MEMBER-002");
    const unknown = await call("POST", MEMBERS, {
      token: admin.token,
      body: { email, scopes: ["runner:admin"] },
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error_code).toBe("UZ-REQ-001");
    expect((await allMembers(tenant.apiKey)).map((m) => m.email)).not.toContain(email);

    // fleet:read is covered by the fleet:write the admin holds.
    const within = await call<Invitation>("POST", MEMBERS, {
      token: admin.token,
      body: { email, scopes: ["fleet:read"] },
    });
    expect(within.status, within.text).toBe(201);
  });

  it("changes a member's scopes, which their credentials act with at once; nobody raises their own", async () => {
    const tenant = await seedTenant();
    const member = await seedMember(tenant, ["fleet:read", "secret:read"]);
    expect((await call("GET", "/v1/users/me", { token: member.token })).body.scopes).toHaveLength(2);
    const patched = await call("PATCH", `${MEMBERS}/${member.userId}`, {
      token: tenant.apiKey,
      body: { scopes: ["fleet:read"] },
    });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body).toMatchObject({ user_id: member.userId, scopes: ["fleet:read"], role: "member" });
    const me = await call("GET", "/v1/users/me", { token: member.token });
    expect(me.body.scopes).toEqual(["fleet:read"]);
    expect(await auditCount(tenant.tenantId, "member.update", `user:${member.userId}`)).toBe(1);

    const admin = await seedMember(tenant, ["workspace:admin", "fleet:write"]);
    const self = await call("PATCH", `${MEMBERS}/${admin.userId}`, {
      token: admin.token,
      body: { scopes: ["workspace:admin", "fleet:admin"] },
    });
    expect(self.status).toBe(403);
    expect(self.body.error_code).toBe("UZ-AUTH-022");
    expect(self.body.detail).toContain("fleet:admin");
    // The admin may take away what the member holds, and keep what the admin cannot give.
    const other = await seedMember(tenant, ["fleet:read", "billing:read", "approval:read"]);
    const narrowed = await call("PATCH", `${MEMBERS}/${other.userId}`, {
      token: admin.token,
      body: { scopes: ["billing:read", "fleet:read"] },
    });
    expect(narrowed.status, narrowed.text).toBe(200);
    const added = await call("PATCH", `${MEMBERS}/${other.userId}`, {
      token: admin.token,
      body: { scopes: ["billing:read", "fleet:read", "secret:read"] },
    });
    expect(added.status).toBe(403);
    expect(added.body.error_code).toBe("UZ-AUTH-022");

    const ownerChange = await call("PATCH", `${MEMBERS}/${tenant.userId}`, {
      token: admin.token,
      body: { scopes: ["fleet:read"] },
    });
    expect(ownerChange.status).toBe(403);
    expect(ownerChange.body.error_code).toBe("UZ-MEMBER-002");
    const promote = await call("PATCH", `${MEMBERS}/${admin.userId}`, {
      token: admin.token,
      body: { role: "owner" },
    });
    expect(promote.status).toBe(403);
    expect(promote.body.error_code).toBe("UZ-MEMBER-002");

    const demoteLast = await call("PATCH", `${MEMBERS}/${tenant.userId}`, {
      token: tenant.apiKey,
      body: { role: "member" },
    });
    expect(demoteLast.status).toBe(409);
    expect(demoteLast.body.error_code).toBe("UZ-INV-004");
    const absent = await call("PATCH", `${MEMBERS}/01a2000a-0000-7000-8000-000000000000`, {
      token: tenant.apiKey,
      body: { scopes: [] },
    });
    expect(absent.status).toBe(404);
    expect(absent.body.error_code).toBe("UZ-MEMBER-001");
  });

  it("removes a member idempotently: 204, again 204, and 204 for a non-member", async () => {
    const tenant = await seedTenant();
    const member = await seedMember(tenant, ["fleet:read"]);
    const first = await call("DELETE", `${MEMBERS}/${member.userId}`, { token: tenant.apiKey });
    expect(first.status, first.text).toBe(204);
    expect(first.text).toBe("");
    const second = await call("DELETE", `${MEMBERS}/${member.userId}`, { token: tenant.apiKey });
    expect(second.status).toBe(204);
    const never = await call("DELETE", `${MEMBERS}/01a2000a-0000-7000-8000-000000000000`, {
      token: tenant.apiKey,
    });
    expect(never.status).toBe(204);
    expect((await allMembers(tenant.apiKey)).map((m) => m.user_id)).toEqual([tenant.userId]);
    expect(await auditCount(tenant.tenantId, "member.remove", `user:${member.userId}`)).toBe(1);
  });

  it("refuses a removed member's next request, with their session and every key they minted", async () => {
    const tenant = await seedTenant();
    const member = await seedMember(tenant, ["fleet:read", "apikey:write"]);
    const minted = await call<OutputOf<typeof createApiKey>>("POST", "/v1/api-keys", {
      token: member.token,
      body: { key_name: "mine" },
    });
    expect(minted.status).toBe(201);
    for (const token of [member.token, minted.body.key]) {
      expect((await call("GET", "/v1/users/me", { token })).status).toBe(200); // cached now
    }
    const removed = await call("DELETE", `${MEMBERS}/${member.userId}`, { token: tenant.apiKey });
    expect(removed.status).toBe(204);
    const session = await call("GET", "/v1/users/me", { token: member.token });
    expect(session.status).toBe(401);
    expect(session.body.error_code).toBe("UZ-AUTH-002");
    const key = await call("GET", `/v1/workspaces/${tenant.workspaceId}/fleets`, { token: minted.body.key });
    expect(key.status).toBe(401);
    expect(key.body.error_code).toBe("UZ-APIKEY-004");

    // Invited again, the person starts afresh: the keys minted before stay revoked.
    const back = await call("POST", MEMBERS, {
      token: tenant.apiKey,
      body: { email: member.email, scopes: ["fleet:read"] },
    });
    expect(back.status, back.text).toBe(201);
    const stillRevoked = await call("GET", "/v1/users/me", { token: minted.body.key });
    expect(stillRevoked.status).toBe(401);
    const oldSession = await call("GET", "/v1/users/me", { token: member.token });
    expect(oldSession.status).toBe(401);
    expect(oldSession.body.error_code).toBe("UZ-AUTH-002");
  });

  it("refuses to remove the last owner (409 UZ-INV-004), and an owner is removed only by an owner", async () => {
    const tenant = await seedTenant();
    const self = await call("DELETE", `${MEMBERS}/${tenant.userId}`, { token: tenant.apiKey });
    expect(self.status).toBe(409);
    expect(self.body).toMatchObject({ error_code: "UZ-INV-004", current_state: "last_owner" });
    const admin = await seedMember(tenant, ["workspace:admin"]);
    const byAdmin = await call("DELETE", `${MEMBERS}/${tenant.userId}`, { token: admin.token });
    expect(byAdmin.status).toBe(409); // the last owner stays, whoever asks
    const second = await secondOwner(tenant);
    const notOwner = await call("DELETE", `${MEMBERS}/${second.userId}`, { token: admin.token });
    expect(notOwner.status).toBe(403);
    expect(notOwner.body.error_code).toBe("UZ-MEMBER-002");
    const byOwner = await call("DELETE", `${MEMBERS}/${second.userId}`, { token: tenant.apiKey });
    expect(byOwner.status).toBe(204);
  });

  async function ownerTotal(tenantId: string): Promise<number> {
    const api = await testApi();
    const owners = await api.database.query<{ n: number }>(
      "select count(*)::int as n from memberships where tenant_id = $1 and role = 'owner'",
      [tenantId],
    );
    return owners[0]!.n;
  }

  it("of the two last owners leaving at once, exactly one leaves and the other is told 409 UZ-INV-004", async () => {
    const tenant = await seedTenant();
    const second = await secondOwner(tenant);
    const answers = await Promise.all([
      call("DELETE", `${MEMBERS}/${tenant.userId}`, { token: tenant.apiKey }),
      call("DELETE", `${MEMBERS}/${second.userId}`, { token: second.token }),
    ]);
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses, answers.map((a) => a.text).join(" | ")).toEqual([204, 409]);
    expect(answers.find((a) => a.status === 409)!.body).toMatchObject({
      error_code: "UZ-INV-004",
      current_state: "last_owner",
    });
    expect(await ownerTotal(tenant.tenantId)).toBe(1);
  });

  it("of the two last owners removing each other at once, exactly one succeeds", async () => {
    const tenant = await seedTenant();
    const second = await secondOwner(tenant);
    for (const token of [tenant.apiKey, second.token]) {
      expect((await call("GET", "/v1/users/me", { token })).status).toBe(200);
    }
    const answers = await Promise.all([
      call("DELETE", `${MEMBERS}/${second.userId}`, { token: tenant.apiKey }),
      call("DELETE", `${MEMBERS}/${tenant.userId}`, { token: second.token }),
    ]);
    const texts = answers.map((a) => a.text).join(" | ");
    expect(
      answers.filter((a) => a.status === 204),
      texts,
    ).toHaveLength(1);
    // The other is refused: 409 when it reached the lock as an owner, 401 when its caller was already gone.
    const loser = answers.find((a) => a.status !== 204)!;
    expect([409, 401], texts).toContain(loser.status);
    expect(loser.body.error_code).toBe(loser.status === 409 ? "UZ-INV-004" : "UZ-AUTH-002");
    expect(await ownerTotal(tenant.tenantId)).toBe(1);
  });

  it("answers 404 for another tenant's member on change, and leaves them in place on removal", async () => {
    const tenant = await seedTenant();
    const member = await seedMember(tenant, ["fleet:read"]);
    const stranger = await seedTenant();
    const patched = await call("PATCH", `${MEMBERS}/${member.userId}`, {
      token: stranger.apiKey,
      body: { scopes: [] },
    });
    expect(patched.status).toBe(404);
    expect(patched.body.error_code).toBe("UZ-MEMBER-001");
    const removed = await call("DELETE", `${MEMBERS}/${member.userId}`, { token: stranger.apiKey });
    expect(removed.status).toBe(204);
    expect((await call("GET", "/v1/users/me", { token: member.token })).status).toBe(200);
    expect((await allMembers(tenant.apiKey)).map((m) => m.user_id)).toContain(member.userId);
  });
});
