import type { OutputOf } from "@fleet/contracts";
import type { createModel as createOperation } from "@fleet/contracts/models/create-model";
import type { listAdminModels } from "@fleet/contracts/models/list-admin-models";
import type { listModels } from "@fleet/contracts/models/list-models";
import { describe, expect, it } from "vitest";
import { newId } from "../src/runtime/ids.ts";
import { call, operatorToken, seedMember, seedTenant } from "./harness.ts";

type AdminModel = OutputOf<typeof createOperation>;
type Catalogue = OutputOf<typeof listModels>;

const pricing = {
  context_cap_tokens: 200_000,
  input_nanos_per_mtok: 3_000_000_000,
  cached_input_nanos_per_mtok: 300_000_000,
  output_nanos_per_mtok: 15_000_000_000,
};

/** A model name no other test uses: the catalogue is one per database, shared by every test on it. */
const uniqueName = (stem: string) => `${stem}-${newId()}`;

async function admin(scopes = ["model:admin"]) {
  return operatorToken(scopes);
}

async function createModel(token: string, provider = "anthropic", modelId = uniqueName("claude")) {
  const created = await call<AdminModel>("POST", "/v1/admin/models", {
    token,
    body: { provider, model_id: modelId, ...pricing },
  });
  expect(created.status, created.text).toBe(201);
  return created.body;
}

describe("the operator's model catalogue", () => {
  it("creates, lists, changes and deletes rows addressed by uid", async () => {
    const token = await admin();
    const modelId = uniqueName("claude-sonnet");
    const created = await createModel(token, "anthropic", modelId);
    expect(created).toMatchObject({ provider: "anthropic", model_id: modelId, ...pricing });
    expect(created.uid).toMatch(/^[0-9a-f-]{36}$/);
    expect(created.created_at).toBe(created.updated_at);

    const listed = await call<OutputOf<typeof listAdminModels>>(
      "GET",
      "/v1/admin/models?provider=anthropic&limit=100",
      { token },
    );
    expect(listed.status).toBe(200);
    expect(listed.body.total).toBeGreaterThanOrEqual(1);
    for (const item of listed.body.items) expect(item.provider).toBe("anthropic");

    const patched = await call<AdminModel>("PATCH", `/v1/admin/models/${created.uid}`, {
      token,
      body: { output_nanos_per_mtok: 16_000_000_000, context_cap_tokens: 1_000_000 },
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({
      uid: created.uid,
      model_id: modelId,
      context_cap_tokens: 1_000_000,
      input_nanos_per_mtok: pricing.input_nanos_per_mtok,
      output_nanos_per_mtok: 16_000_000_000,
    });

    expect((await call("DELETE", `/v1/admin/models/${created.uid}`, { token })).status).toBe(204);
    for (const [method, body] of [
      ["PATCH", { context_cap_tokens: 5 }],
      ["DELETE", undefined],
    ] as const) {
      const gone = await call(method, `/v1/admin/models/${created.uid}`, { token, body });
      expect(gone.status).toBe(404);
      expect(gone.body.error_code).toBe("UZ-PROVIDER-006");
    }
  });

  it("refuses unknown providers, bad fields, renames and empty changes", async () => {
    const token = await admin();
    const unknown = await call("POST", "/v1/admin/models", {
      token,
      body: { provider: "acme", model_id: uniqueName("m"), ...pricing },
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error_code).toBe("UZ-PROVIDER-001");
    for (const body of [
      { provider: "openai", model_id: "has space", ...pricing },
      { provider: "openai", model_id: uniqueName("m"), ...pricing, context_cap_tokens: 0 },
      { provider: "openai", model_id: uniqueName("m"), ...pricing, input_nanos_per_mtok: -1 },
      { provider: "openai", model_id: uniqueName("m"), ...pricing, output_nanos_per_mtok: 1.5 },
      { provider: "openai", model_id: uniqueName("m"), ...pricing, uid: newId() },
      { provider: "openai", model_id: uniqueName("m") },
    ]) {
      const refused = await call("POST", "/v1/admin/models", { token, body });
      expect(refused.status, JSON.stringify(body)).toBe(400);
      expect(refused.body.error_code).toBe("UZ-REQ-001");
    }
    const row = await createModel(token, "openai");
    for (const body of [{}, { model_id: "renamed" }, { provider: "anthropic" }]) {
      const refused = await call("PATCH", `/v1/admin/models/${row.uid}`, { token, body });
      expect(refused.status, JSON.stringify(body)).toBe(400);
      expect(refused.body.error_code).toBe("UZ-REQ-001");
    }
    const malformed = await call("PATCH", "/v1/admin/models/not-a-uid", {
      token,
      body: { context_cap_tokens: 1 },
    });
    expect(malformed.status).toBe(400);
  });

  it("answers 409 UZ-PROVIDER-008 for a duplicate (provider, model_id), but not across providers", async () => {
    const token = await admin();
    const row = await createModel(token, "openai");
    const again = await call("POST", "/v1/admin/models", {
      token,
      body: { provider: "openai", model_id: row.model_id, ...pricing },
    });
    expect(again.status).toBe(409);
    expect(again.body.error_code).toBe("UZ-PROVIDER-008");
    await createModel(token, "openai_compatible", row.model_id);
  });

  it("gives one 201 and 409 UZ-PROVIDER-008 to concurrent creates of one model", async () => {
    const token = await admin();
    const modelId = uniqueName("raced");
    const answers = await Promise.all(
      Array.from({ length: 10 }, () =>
        call("POST", "/v1/admin/models", {
          token,
          body: { provider: "anthropic", model_id: modelId, ...pricing },
        }),
      ),
    );
    expect(answers.filter((a) => a.status === 201)).toHaveLength(1);
    const conflicts = answers.filter((a) => a.status === 409);
    expect(conflicts).toHaveLength(9);
    for (const conflict of conflicts) expect(conflict.body.error_code).toBe("UZ-PROVIDER-008");
    const listed = await call<OutputOf<typeof listAdminModels>>(
      "GET",
      "/v1/admin/models?limit=100&provider=anthropic",
      {
        token,
      },
    );
    expect(listed.status).toBe(200);
  });

  it("needs model:read to list, model:write to change, model:admin to delete", async () => {
    const row = await createModel(await admin());
    const reader = await operatorToken(["model:read"]);
    const writer = await operatorToken(["model:write"]);
    expect((await call("GET", "/v1/admin/models", { token: reader })).status).toBe(200);
    const readOnly = await call("POST", "/v1/admin/models", {
      token: reader,
      body: { provider: "openai", model_id: uniqueName("m"), ...pricing },
    });
    expect(readOnly.status).toBe(403);
    expect(readOnly.body.detail).toContain("model:write");
    const patched = await call("PATCH", `/v1/admin/models/${row.uid}`, {
      token: writer,
      body: { input_nanos_per_mtok: 1 },
    });
    expect(patched.status).toBe(200);
    const notAdmin = await call("DELETE", `/v1/admin/models/${row.uid}`, { token: writer });
    expect(notAdmin.status).toBe(403);
    expect(notAdmin.body.detail).toContain("model:admin");
  });
});

/**
 * Reads the catalogue and, at once, conditionally again. Another test file on this database may change the
 * catalogue in between: a 200 with a newer tag is that, and the pair is retried.
 */
async function conditionalPair(token: string, path: string, match: (tag: string) => string) {
  for (let attempt = 0; ; attempt++) {
    const first = await call<Catalogue>("GET", path, { token });
    const tag = first.headers.get("etag")!;
    const second = await call<Catalogue>("GET", path, { token, headers: { "if-none-match": match(tag) } });
    if (second.status === 304 || second.headers.get("etag") === tag || attempt === 4) {
      return { first, second, tag };
    }
  }
}

describe("GET /v1/models", () => {
  it("answers the spec's shape with the caching headers", async () => {
    const token = await admin();
    const row = await createModel(token, "openai_compatible");
    const tenant = await seedTenant();
    const read = await call<Catalogue>("GET", "/v1/models?provider=openai_compatible&limit=100", {
      token: tenant.apiKey,
    });
    expect(read.status).toBe(200);
    expect(Object.keys(read.body).sort()).toEqual(["models", "next_cursor", "total", "version"]);
    expect(read.body.total).toBeNull();
    expect(read.body.version).toBeGreaterThan(0);
    expect(read.headers.get("etag")).toMatch(/^"[^"]+"$/);
    expect(read.headers.get("cache-control")).toBe("private, no-cache");
    expect(read.headers.get("vary")).toBe("Authorization");
    const item = read.body.models.find((m) => m.id === row.model_id);
    expect(item).toEqual({
      id: row.model_id,
      provider: "openai_compatible",
      context_cap_tokens: pricing.context_cap_tokens,
      input_nanos_per_mtok: pricing.input_nanos_per_mtok,
      cached_input_nanos_per_mtok: pricing.cached_input_nanos_per_mtok,
      output_nanos_per_mtok: pricing.output_nanos_per_mtok,
    });
    for (const model of read.body.models) expect(model.provider).toBe("openai_compatible");
    // Any member reads it: no scope is needed.
    const member = await seedMember(tenant, []);
    expect((await call("GET", "/v1/models", { token: member.token })).status).toBe(200);
  });

  it("answers 304 to the current tag, and a new tag once the catalogue changes", async () => {
    const token = await admin();
    const tenant = await seedTenant();
    const { first, second, tag } = await conditionalPair(tenant.apiKey, "/v1/models", (t) => t);
    expect(first.status).toBe(200);
    expect(second.status).toBe(304);
    expect(second.text).toBe("");
    expect(second.headers.get("etag")).toBe(tag);
    expect(second.headers.get("cache-control")).toBe("private, no-cache");
    expect(second.headers.get("vary")).toBe("Authorization");
    // A weak tag and a list naming it compare equal (If-None-Match compares weakly); so does *.
    for (const match of [(t: string) => `W/${t}`, (t: string) => `"other", ${t}`, () => "*"]) {
      expect((await conditionalPair(tenant.apiKey, "/v1/models", match)).second.status).toBe(304);
    }

    const row = await createModel(token);
    const stale = await call<Catalogue>("GET", "/v1/models", {
      token: tenant.apiKey,
      headers: { "if-none-match": tag },
    });
    expect(stale.status).toBe(200);
    expect(stale.headers.get("etag")).not.toBe(tag);
    expect(stale.body.version).toBeGreaterThan(first.body.version);

    for (const change of [
      () => call("PATCH", `/v1/admin/models/${row.uid}`, { token, body: { input_nanos_per_mtok: 7 } }),
      () => call("DELETE", `/v1/admin/models/${row.uid}`, { token }),
    ]) {
      const before = (await call("GET", "/v1/models", { token: tenant.apiKey })).headers.get("etag")!;
      expect((await change()).status).toBeLessThan(300);
      const after = await call("GET", "/v1/models", {
        token: tenant.apiKey,
        headers: { "if-none-match": before },
      });
      expect(after.status).toBe(200);
    }
  });

  it("pages by cursor, at most 50 rows a page whatever limit asks", async () => {
    const token = await admin();
    const mine = new Set<string>();
    for (let batch = 0; batch < 6; batch++) {
      const rows = await Promise.all(Array.from({ length: 10 }, () => createModel(token, "openai")));
      for (const row of rows) mine.add(row.model_id);
    }
    const tenant = await seedTenant();
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const query: string = cursor === null ? "" : `&starting_after=${cursor}`;
      const page = await call<Catalogue>("GET", `/v1/models?limit=100&provider=openai${query}`, {
        token: tenant.apiKey,
      });
      expect(page.status).toBe(200);
      expect(page.body.models.length).toBeLessThanOrEqual(50);
      if (pages === 0) expect(page.body.models).toHaveLength(50);
      seen.push(...page.body.models.map((m) => m.id));
      cursor = page.body.next_cursor;
      pages++;
    } while (cursor !== null);
    expect(pages).toBeGreaterThanOrEqual(2);
    expect(new Set(seen).size).toBe(seen.length);
    for (const id of mine) expect(seen).toContain(id);

    const small = await call<Catalogue>("GET", "/v1/models?limit=2", { token: tenant.apiKey });
    expect(small.body.models).toHaveLength(2);
    expect(small.body.next_cursor).not.toBeNull();
    for (const query of ["limit=0", "limit=101", "starting_after=bogus", "page=2", "cursor=x", "sort=id"]) {
      const refused = await call("GET", `/v1/models?${query}`, { token: tenant.apiKey });
      expect(refused.status, query).toBe(400);
      expect(refused.body.error_code).toBe("UZ-REQ-001");
    }
    const adminCursor = (
      await call<OutputOf<typeof listAdminModels>>("GET", "/v1/admin/models?limit=1", { token })
    ).body.next_cursor;
    const crossed = await call("GET", `/v1/models?starting_after=${adminCursor}`, { token: tenant.apiKey });
    expect(crossed.status).toBe(400);
  });
});
