import { execFileSync } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { createServer, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { OutputOf, ProblemBody } from "@fleet/contracts";
import type { listApiKeys } from "@fleet/contracts/api-keys/list-api-keys";
import type { createLibrary } from "@fleet/contracts/fleet-libraries/create-library";
import type { getLibrary } from "@fleet/contracts/fleet-libraries/get-library";
import type { listLibraries } from "@fleet/contracts/fleet-libraries/list-libraries";
import type { createWorkspace } from "@fleet/contracts/workspaces/create-workspace";
import { fleetLibraries, inArray } from "@fleet/db";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newId } from "../src/runtime/ids.ts";
import { fetchDefinitionFromGit } from "../src/services/fleet-libraries/git-source.ts";
import { bootstrapTenant } from "../src/services/tenants/tenants.ts";
import {
  call,
  callAt,
  operatorToken,
  seedMember,
  seedTenant,
  startApi,
  type Tenant,
  type TestApi,
  type TrpcRefusal,
  testApi,
} from "./harness.ts";

const fixtures = join(import.meta.dirname, "fixtures", "libraries");
const TRIAGE = readFileSync(join(fixtures, "triage.md"), "utf8");

/** An entry or a page of them; a problem's fields too, since the same calls are refused. */
type Item = OutputOf<typeof createLibrary> & Partial<ProblemBody>;
type Page = OutputOf<typeof listLibraries> & Partial<ProblemBody>;

/** A definition file: the front matter lines, then the instructions. */
function definition(frontMatter: string, instructions = "Do the work you are asked to do."): string {
  return `---\n${frontMatter}\n---\n${instructions}\n`;
}

function onboard(tenant: Tenant, body: unknown, workspaceId = tenant.workspaceId) {
  return call<Item>("POST", `/v1/workspaces/${workspaceId}/fleet-libraries`, { token: tenant.apiKey, body });
}

function list(tenant: Tenant, query = "", workspaceId = tenant.workspaceId) {
  return call<Page>("GET", `/v1/workspaces/${workspaceId}/fleet-libraries${query}`, { token: tenant.apiKey });
}

async function newWorkspace(tenant: Tenant): Promise<string> {
  const created = await call<OutputOf<typeof createWorkspace>>("POST", "/v1/workspaces", {
    token: tenant.apiKey,
    body: { name: `second ${newId()}` },
  });
  expect(created.status).toBe(201);
  return created.body.workspace_id;
}

/** Every item of a listing, following next_cursor to the end. */
async function everything(tenant: Tenant, limit: number, workspaceId = tenant.workspaceId): Promise<Item[]> {
  const items: Item[] = [];
  let cursor: string | null = null;
  do {
    const after: string = cursor === null ? "" : `&starting_after=${cursor}`;
    const page = await list(tenant, `?limit=${limit}${after}`, workspaceId);
    expect(page.status, JSON.stringify(page.body)).toBe(200);
    expect(page.body.items.length).toBeLessThanOrEqual(limit);
    items.push(...page.body.items);
    cursor = page.body.next_cursor;
  } while (cursor !== null);
  return items;
}

/** The list's order: created_at descending, then platform before tenant, then id descending. */
function inListOrder(a: Item, b: Item): boolean {
  if (a.created_at !== b.created_at) return a.created_at > b.created_at;
  if (a.visibility !== b.visibility) return a.visibility === "platform";
  return a.id > b.id;
}

describe("onboarding a fleet definition", () => {
  it("stores an upload and answers its metadata only; the one-entry read shows it in full", async () => {
    const tenant = await seedTenant();
    const created = await onboard(tenant, { definition: TRIAGE });
    expect(created.status, created.text).toBe(201);
    const digest = createHash("sha256").update(TRIAGE).digest("hex");
    expect(created.body).toEqual({
      id: expect.any(String),
      name: "Issue triage",
      description: "Labels new GitHub issues every weekday morning and posts a summary to Slack.",
      visibility: "tenant",
      source_ref: `upload:sha256:${digest}`,
      requirements: {
        credentials: ["GITHUB_TOKEN", "SLACK_WEBHOOK_URL"],
        tools: ["github.issues", "slack.post_message"],
        network_hosts: ["api.github.com", "hooks.slack.com"],
        runner_labels: ["linux"],
      },
      required_credentials_reasons: {
        GITHUB_TOKEN: "Reads issues and writes labels and comments on the repositories you name.",
        SLACK_WEBHOOK_URL: "Posts the daily summary to your team's channel.",
      },
      created_at: expect.any(Number),
    });
    expect(created.text).not.toContain("instructions");
    expect(created.text).not.toContain("Never close an issue");

    const entry = await call(
      "GET",
      `/v1/workspaces/${tenant.workspaceId}/fleet-libraries/${created.body.id}`,
      {
        token: tenant.apiKey,
      },
    );
    expect(entry.status).toBe(200);
    expect(entry.body).toMatchObject({ ...created.body });
    expect(entry.body.instructions).toMatch(/^# Issue triage\n\nYou triage/);
    expect(entry.body.instructions).toMatch(/answered already\.$/);
    expect(entry.body.triggers).toEqual([
      {
        cron: "0 9 * * 1-5",
        timezone: "Europe/Berlin",
        message: "Triage the issues opened since yesterday and post the summary.",
      },
      {
        cron: "*/30 * * * *",
        timezone: "UTC",
        message: "Look for new issues labelled urgent and answer them first.",
      },
    ]);
  });

  it("onboards platform entries with an operator token, visible to every workspace", async () => {
    const operator = await operatorToken(["platform-library:write"]);
    const created = await call<Item>("POST", "/v1/admin/fleet-libraries", {
      token: operator,
      body: { definition: definition(`name: Platform ${newId()}\ndescription: For everyone.`) },
    });
    expect(created.status, created.text).toBe(201);
    expect(created.body.visibility).toBe("platform");
    for (const tenant of [await seedTenant(), await seedTenant()]) {
      const entry = await call(
        "GET",
        `/v1/workspaces/${tenant.workspaceId}/fleet-libraries/${created.body.id}`,
        {
          token: tenant.apiKey,
        },
      );
      expect(entry.status).toBe(200);
      expect(entry.body).toMatchObject({
        id: created.body.id,
        visibility: "platform",
        instructions: expect.any(String),
      });
    }
  });

  it("keeps a workspace's entry to that workspace: elsewhere it is 404 UZ-BUNDLE-001, as an absent id", async () => {
    const owner = await seedTenant();
    const created = await onboard(owner, { definition: definition("name: Private") });
    const otherWorkspace = await newWorkspace(owner);
    const stranger = await seedTenant();
    for (const [tenant, workspaceId] of [
      [owner, otherWorkspace],
      [stranger, stranger.workspaceId],
    ] as const) {
      const path = `/v1/workspaces/${workspaceId}/fleet-libraries`;
      const theirs = await call("GET", `${path}/${created.body.id}`, { token: tenant.apiKey });
      const absent = await call("GET", `${path}/${newId()}`, { token: tenant.apiKey });
      for (const response of [theirs, absent]) {
        expect(response.status).toBe(404);
        expect(response.body.error_code).toBe("UZ-BUNDLE-001");
      }
      const listed = await everything(tenant, 100, workspaceId);
      expect(listed.map((item) => item.id)).not.toContain(created.body.id);
    }
  });

  it("needs library:write to onboard and fleet:read to read", async () => {
    const tenant = await seedTenant();
    const reader = await seedMember(tenant, ["fleet:read"]);
    const writer = await seedMember(tenant, ["library:write"]);
    const base = `/v1/workspaces/${tenant.workspaceId}/fleet-libraries`;
    const body = { definition: definition("name: Scoped") };
    const refused = await call("POST", base, { token: reader.token, body });
    expect(refused.status).toBe(403);
    expect(refused.body.detail).toContain("library:write");
    const created = await call<Item>("POST", base, { token: writer.token, body });
    expect(created.status).toBe(201);
    expect((await call("GET", base, { token: writer.token })).body.detail).toContain("fleet:read");
    expect((await call("GET", base, { token: reader.token })).status).toBe(200);
    expect((await call("GET", `${base}/${created.body.id}`, { token: reader.token })).status).toBe(200);
  });

  it("takes exactly one of definition and git_url, and nothing else", async () => {
    const tenant = await seedTenant();
    const text = definition("name: Shape");
    for (const body of [
      {},
      { definition: text, git_url: "https://example.com/repo.git" },
      { definition: text, path: "fleet.md" },
      { definition: text, ref: "main" },
      { definition: text, instructions: "x" },
      { definition: 42 },
      { ref: "main" },
    ]) {
      const response = await onboard(tenant, body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body.error_code).toBe("UZ-REQ-001");
    }
  });

  it("refuses a malformed definition with 400 UZ-LIBRARY-010 naming the field, storing nothing", async () => {
    const tenant = await seedTenant();
    const cases: [string, RegExp][] = [
      ["name: No front matter\n\nJust text.", /open with YAML front matter/],
      ["---\nname: Unclosed\n\nNo closing line.", /not closed/],
      [definition("name: [unbalanced"), /not valid YAML at line 2/],
      [definition('name: Twice\nname: "Again"'), /not valid YAML at line 3/],
      [definition("name: Cron\ntriggers:\n  - cron: */5 * * * *\n    message: m"), /not valid YAML/],
      [definition("description: no name"), /^name is required\.$/],
      [definition("name: 12"), /^name must be a string\.$/],
      [definition("name: Typo\nrequirs: {}"), /unknown key requirs/],
      [definition("name: Typo\nrequires:\n  tool: [a]"), /requires has unknown key tool/],
      [
        definition("name: Four\ntriggers:\n  - cron: '0 9 * *'\n    message: m"),
        /^triggers\[0\]\.cron must be five fields/,
      ],
      [
        definition("name: Six\ntriggers:\n  - cron: '0 0 9 * * *'\n    message: m"),
        /^triggers\[0\]\.cron must be five fields/,
      ],
      [
        definition("name: Minute\ntriggers:\n  - cron: '61 * * * *'\n    message: m"),
        /^triggers\[0\]\.cron .*minute/,
      ],
      [
        definition("name: Range\ntriggers:\n  - cron: '0 9 * * 5-1'\n    message: m"),
        /^triggers\[0\]\.cron .*day of week/,
      ],
      [definition("name: Macro\ntriggers:\n  - cron: '@daily'\n    message: m"), /^triggers\[0\]\.cron/],
      [
        definition(
          "name: Zone\ntriggers:\n  - cron: '0 9 * * *'\n    timezone: Mars/Olympus\n    message: m",
        ),
        /^triggers\[0\]\.timezone must be an IANA time zone/,
      ],
      [
        definition("name: Offset\ntriggers:\n  - cron: '0 9 * * *'\n    timezone: '+01:00'\n    message: m"),
        /^triggers\[0\]\.timezone/,
      ],
      [definition("name: Silent\ntriggers:\n  - cron: '0 9 * * *'"), /^triggers\[0\]\.message is required/],
      [
        definition("name: No reason\nrequires:\n  credentials:\n    - name: TOKEN"),
        /credentials\[0\]\.reason is required/,
      ],
      [
        definition("name: Bad secret\nrequires:\n  credentials:\n    - name: 'has space'\n      reason: r"),
        /^requires\.credentials\[0\]\.name must be letters/,
      ],
      [
        definition(
          "name: Twice\nrequires:\n  credentials:\n    - {name: A, reason: r}\n    - {name: A, reason: s}",
        ),
        /^requires\.credentials must not name the same credential twice/,
      ],
      [
        definition("name: Host\nrequires:\n  network_hosts: ['http://example.com']"),
        /network_hosts\[0\] must be a host/,
      ],
      [definition("name: Label\nrequires:\n  runner_labels: ['-gpu']"), /runner_labels\[0\]/],
      [definition("name: Empty body", "   \n"), /^instructions .* must not be empty/],
      [
        definition(
          `name: Long reason\nrequires:\n  credentials:\n    - name: TOKEN\n      reason: "${"é".repeat(251)}"`,
        ),
        /^requires\.credentials\[0\]\.reason must be at most 500 bytes/,
      ],
    ];
    for (const [text, detail] of cases) {
      const response = await onboard(tenant, { definition: text });
      expect(response.status, text).toBe(400);
      expect(response.body.error_code, text).toBe("UZ-LIBRARY-010");
      expect(response.body.detail, text).toMatch(detail);
    }
    // A NUL character is refused for every string at the contract, before the definition is read.
    const nul = await onboard(tenant, { definition: definition("name: Nul", "Stop\u0000here") });
    expect(nul.status).toBe(400);
    expect(nul.body.error_code).toBe("UZ-REQ-001");
    expect(nul.body.detail).toMatch(/^definition .*NUL/);
    expect((await list(tenant)).body.items.filter((item) => item.visibility === "tenant")).toEqual([]);
  });

  it("accepts every ceiling exactly, and answers 413 UZ-LIBRARY-011 one past it", async () => {
    const tenant = await seedTenant();
    const label63 = (c: string) => c.repeat(63);
    const host253 = [label63("a"), label63("b"), label63("c"), "d".repeat(61)].join(".");
    const host255 = [label63("a"), label63("b"), label63("c"), label63("d")].join(".");
    const front = (
      o: { credentials?: number; tools?: number; hosts?: number; labels?: number; triggers?: number } = {},
    ) =>
      [
        `name: "${"é".repeat(100)}"`,
        `description: "${"d".repeat(2000)}"`,
        "triggers:",
        ...Array.from({ length: o.triggers ?? 16 }, (_, i) => `  - {cron: "${i} * * * *", message: m}`),
        "requires:",
        "  credentials:",
        ...Array.from(
          { length: o.credentials ?? 32 },
          (_, i) =>
            `    - {name: C${i}_${"x".repeat(200 - 2 - String(i).length)}, reason: "${"ü".repeat(250)}"}`,
        ),
        "  tools:",
        ...Array.from(
          { length: o.tools ?? 64 },
          (_, i) => `    - t${i}${"x".repeat(199 - String(i).length)}`,
        ),
        "  network_hosts:",
        ...Array.from(
          { length: o.hosts ?? 64 },
          (_, i) => `    - h${i}.${host253.slice(String(i).length + 2)}`,
        ),
        "  runner_labels:",
        ...Array.from(
          { length: o.labels ?? 32 },
          (_, i) => `    - l${i}${"x".repeat(199 - String(i).length)}`,
        ),
      ].join("\n");
    const atLimits = await onboard(tenant, { definition: definition(front()) });
    expect(atLimits.status, atLimits.text).toBe(201);
    expect(atLimits.body.requirements.credentials).toHaveLength(32);
    expect(atLimits.body.requirements.network_hosts.every((host) => host.length === 253)).toBe(true);

    const over: [string, string, RegExp][] = [
      ["33 credentials", front({ credentials: 33 }), /^requires\.credentials must hold at most 32/],
      ["65 tools", front({ tools: 65 }), /^requires\.tools must hold at most 64/],
      ["65 hosts", front({ hosts: 65 }), /^requires\.network_hosts must hold at most 64/],
      ["33 labels", front({ labels: 33 }), /^requires\.runner_labels must hold at most 32/],
      ["17 triggers", front({ triggers: 17 }), /^triggers must hold at most 16/],
      ["name of 201 bytes", `name: "${"é".repeat(100)}x"`, /^name must be at most 200 bytes/],
      [
        "credential name of 201 bytes",
        `name: n\nrequires:\n  credentials:\n    - {name: ${"A".repeat(201)}, reason: r}`,
        /credentials\[0\]\.name must be at most 200 bytes/,
      ],
      [
        "tool of 201 bytes",
        `name: n\nrequires:\n  tools: [${"t".repeat(201)}]`,
        /tools\[0\] must be at most 200 bytes/,
      ],
      [
        "host of 255 bytes",
        `name: n\nrequires:\n  network_hosts: [${host255}]`,
        /network_hosts\[0\] must be at most 253 bytes/,
      ],
      [
        "a ceiling and another fault",
        `${front({ credentials: 33 })}\nextra: key`,
        /^requires\.credentials must hold at most 32/,
      ],
    ];
    for (const [what, frontMatter, detail] of over) {
      const response = await onboard(tenant, { definition: definition(frontMatter) });
      expect(response.status, what).toBe(413);
      expect(response.body.error_code, what).toBe("UZ-LIBRARY-011");
      expect(response.body.detail, what).toMatch(detail);
    }
  });

  it("caps the definition at 256 KiB (413 UZ-LIBRARY-011) and the body at 1 MiB (413 UZ-REQ-006)", async () => {
    const tenant = await seedTenant();
    const fits = definition("name: Big", "x".repeat(256 * 1024 - 40));
    expect(Buffer.byteLength(fits)).toBeLessThanOrEqual(256 * 1024);
    expect((await onboard(tenant, { definition: fits })).status).toBe(201);
    const over = await onboard(tenant, { definition: definition("name: Bigger", "x".repeat(256 * 1024)) });
    expect(over.status).toBe(413);
    expect(over.body.error_code).toBe("UZ-LIBRARY-011");
    expect(over.body.detail).toContain("262144");
    const huge = await onboard(tenant, { definition: definition("name: Huge", "x".repeat(1024 * 1024)) });
    expect(huge.status).toBe(413);
    expect(huge.body.error_code).toBe("UZ-REQ-006");
  });

  it("parses the seed definition and the documented example", async () => {
    const tenant = await seedTenant();
    const seed = readFileSync(
      join(import.meta.dirname, "..", "src", "services", "fleet-libraries", "seed", "echo-fleet.md"),
      "utf8",
    );
    const created = await onboard(tenant, { definition: seed });
    expect(created.status, created.text).toBe(201);
    expect(created.body.requirements.credentials).toEqual(["ECHO_GREETING"]);
    const entry = await call<OutputOf<typeof getLibrary>>(
      "GET",
      `/v1/workspaces/${tenant.workspaceId}/fleet-libraries/${created.body.id}`,
      { token: tenant.apiKey },
    );
    expect(entry.body.triggers).toHaveLength(1);
    const docs = readFileSync(
      join(import.meta.dirname, "..", "..", "..", "docs", "fleet-library-format.md"),
      "utf8",
    );
    expect(docs).toContain(`\`\`\`markdown\n${TRIAGE}\`\`\``);
  });
});

describe("listing a workspace's library", () => {
  it("lists platform entries and the workspace's own, newest first, by cursor, never the instructions", async () => {
    const tenant = await seedTenant();
    const elsewhere = await newWorkspace(tenant);
    const operator = await operatorToken(["platform-library:write"]);
    const mine: string[] = [];
    for (const i of [1, 2]) {
      const created = await call<Item>("POST", "/v1/admin/fleet-libraries", {
        token: operator,
        body: { definition: definition(`name: Platform ${i}`, "SECRET-INSTRUCTIONS") },
      });
      mine.push(created.body.id);
    }
    for (const i of [1, 2, 3]) {
      mine.push(
        (await onboard(tenant, { definition: definition(`name: Own ${i}`, "SECRET-INSTRUCTIONS") })).body.id,
      );
    }
    const foreign = (await onboard(tenant, { definition: definition("name: Elsewhere") }, elsewhere)).body.id;

    const first = await list(tenant, "?limit=2");
    expect(first.status).toBe(200);
    expect(first.body.items).toHaveLength(2);
    expect(first.body.total).toBeGreaterThanOrEqual(5);
    expect(first.body.next_cursor).toEqual(expect.any(String));
    expect(first.text).not.toContain("SECRET-INSTRUCTIONS");
    expect(first.text).not.toContain("instructions");

    const items = await everything(tenant, 2);
    const ids = items.map((item) => item.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of mine) expect(ids).toContain(id);
    expect(ids).not.toContain(foreign);
    for (let i = 1; i < items.length; i++) expect(inListOrder(items[i - 1]!, items[i]!)).toBe(true);
    expect(items.filter((item) => item.visibility === "tenant").map((item) => item.id)).toEqual(
      [...mine.slice(2)].reverse(),
    );
    const defaults = await list(tenant);
    expect(defaults.body.items.length).toBeGreaterThanOrEqual(5);
    expect(defaults.body.items.length).toBeLessThanOrEqual(50);
  });

  it("orders entries of one millisecond platform first, then by id, across page boundaries", async () => {
    const tenant = await seedTenant();
    const other = await seedTenant();
    const api = await testApi();
    // Rows of one millisecond cannot be made over HTTP; written directly, far in the future so they lead.
    const at = 4_000_000_000_000 + Math.floor(Math.random() * 1_000_000);
    const row = (visibility: "platform" | "tenant", owner?: Tenant) => ({
      id: newId(),
      visibility,
      tenantId: owner?.tenantId ?? null,
      workspaceId: owner?.workspaceId ?? null,
      name: `tie ${visibility}`,
      description: "",
      instructions: "x",
      triggers: [],
      requirements: { credentials: [], tools: [], network_hosts: [], runner_labels: [] },
      credentialReasons: {},
      sourceRef: "upload:sha256:00",
      createdAt: at,
    });
    const rows = [
      row("tenant", tenant),
      row("platform"),
      row("tenant", tenant),
      row("platform"),
      row("tenant", other),
    ];
    await api.database.db.insert(fleetLibraries).values(rows);
    try {
      const byId = (a: { id: string }, b: { id: string }) => (a.id < b.id ? 1 : -1);
      const expected = [
        ...rows.filter((r) => r.visibility === "platform").sort(byId),
        ...rows.filter((r) => r.tenantId === tenant.tenantId).sort(byId),
      ].map((r) => r.id);
      for (const limit of [1, 2, 3]) {
        const seen: string[] = [];
        let cursor: string | null = null;
        while (seen.length < 4) {
          const page: Awaited<ReturnType<typeof list>> = await list(
            tenant,
            `?limit=${limit}${cursor ? `&starting_after=${cursor}` : ""}`,
          );
          seen.push(...page.body.items.map((item) => item.id));
          cursor = page.body.next_cursor;
        }
        expect(seen.slice(0, 4), `limit ${limit}`).toEqual(expected);
      }
    } finally {
      await api.database.db.delete(fleetLibraries).where(
        inArray(
          fleetLibraries.id,
          rows.map((r) => r.id),
        ),
      );
    }
  });

  it("refuses cursors it never issued (UZ-LIBRARY-001), for another limit (002), and limits outside 1-100 (003)", async () => {
    const tenant = await seedTenant();
    for (const i of [1, 2, 3]) await onboard(tenant, { definition: definition(`name: Paged ${i}`) });
    const cursor = (await list(tenant, "?limit=2")).body.next_cursor!;
    expect(cursor).toEqual(expect.any(String));
    expect((await list(tenant, `?limit=2&starting_after=${cursor}`)).status).toBe(200);

    await call("POST", "/v1/api-keys", { token: tenant.apiKey, body: { key_name: "second" } });
    const keyCursor = (
      await call<OutputOf<typeof listApiKeys>>("GET", "/v1/api-keys?limit=1", { token: tenant.apiKey })
    ).body.next_cursor!;
    const elsewhere = await newWorkspace(tenant);
    const forged = Buffer.from(
      JSON.stringify(["fleet-libraries", tenant.workspaceId, 2, 1, "nope", newId()]),
    ).toString("base64url");
    for (const [query, workspaceId] of [
      ["?starting_after=not-a-cursor", tenant.workspaceId],
      [`?starting_after=${"A".repeat(600)}`, tenant.workspaceId],
      [`?limit=1&starting_after=${keyCursor}`, tenant.workspaceId],
      [`?limit=2&starting_after=${forged}`, tenant.workspaceId],
      [`?limit=2&starting_after=${cursor}`, elsewhere],
    ] as const) {
      const response = await list(tenant, query, workspaceId);
      expect(response.status, query).toBe(400);
      expect(response.body.error_code, query).toBe("UZ-LIBRARY-001");
    }
    for (const query of [`?limit=3&starting_after=${cursor}`, `?starting_after=${cursor}`]) {
      const response = await list(tenant, query);
      expect(response.status, query).toBe(400);
      expect(response.body.error_code, query).toBe("UZ-LIBRARY-002");
      expect(response.body.detail).toContain("limit=2");
    }
    for (const limit of ["0", "101", "-1", "1.5", "abc", "1e2", "1000"]) {
      const response = await list(tenant, `?limit=${limit}`);
      expect(response.status, limit).toBe(400);
      expect(response.body.error_code, limit).toBe("UZ-LIBRARY-003");
    }
    for (const limit of ["1", "100"]) expect((await list(tenant, `?limit=${limit}`)).status).toBe(200);
    for (const retired of ["page=2", "page_size=10", "cursor=abc", "sort=name"]) {
      const response = await list(tenant, `?${retired}`);
      expect(response.status, retired).toBe(400);
      expect(response.body.error_code, retired).toBe("UZ-REQ-001");
    }
    // The console's transport reads limit the same way.
    const input = encodeURIComponent(JSON.stringify({ workspace_id: tenant.workspaceId, limit: 0 }));
    const trpc = await call<TrpcRefusal>("GET", `/trpc/fleetLibraries.list?input=${input}`, {
      token: tenant.apiKey,
    });
    expect(trpc.status).toBe(400);
    expect(trpc.body.error.data.problem.error_code).toBe("UZ-LIBRARY-003");
  });

  it("answers 500 UZ-LIBRARY-005 rather than a page over the 1 MiB body ceiling", async () => {
    const tenant = await seedTenant();
    const host = (i: number) =>
      `h${i}x${"a".repeat(56)}.${"b".repeat(61)}.${"c".repeat(61)}.${"d".repeat(61)}`;
    const large = (n: number) =>
      definition(
        [
          `name: Large ${n}`,
          `description: "${"d".repeat(1990)}"`,
          "requires:",
          "  credentials:",
          ...Array.from(
            { length: 32 },
            (_, i) => `    - {name: C${i}_${"x".repeat(190)}, reason: "${"r".repeat(490)}"}`,
          ),
          "  tools:",
          ...Array.from({ length: 64 }, (_, i) => `    - t${i}${"x".repeat(190)}`),
          "  network_hosts:",
          ...Array.from({ length: 64 }, (_, i) => `    - ${host(i)}`),
          "  runner_labels:",
          ...Array.from({ length: 32 }, (_, i) => `    - l${i}${"x".repeat(190)}`),
        ].join("\n"),
      );
    for (let batch = 0; batch < 4; batch++) {
      const created = await Promise.all(
        Array.from({ length: 5 }, (_, i) => onboard(tenant, { definition: large(batch * 5 + i) })),
      );
      for (const response of created) expect(response.status, response.text.slice(0, 300)).toBe(201);
    }
    const tooLarge = await list(tenant, "?limit=100");
    expect(tooLarge.status).toBe(500);
    expect(tooLarge.body.error_code).toBe("UZ-LIBRARY-005");
    expect(tooLarge.body.detail).toMatch(/smaller limit/);
    const items = await everything(tenant, 10);
    expect(items.filter((item) => item.visibility === "tenant")).toHaveLength(20);
  });
});

/** A local repository made with the system git: files committed on main, plus the branches asked for. */
function gitRepository(
  files: Record<string, string | Buffer>,
  branches: Record<string, Record<string, string>> = {},
) {
  const dir = mkdtempSync(join(tmpdir(), "fleet-library-fixture-"));
  const env = { ...process.env, GIT_CONFIG_NOSYSTEM: "1", GIT_CONFIG_GLOBAL: "/dev/null" };
  const git = (...args: string[]) =>
    execFileSync("git", ["-c", "user.name=Fixture", "-c", "user.email=fixture@example.test", ...args], {
      cwd: dir,
      env,
    })
      .toString()
      .trim();
  git("init", "-q", "-b", "main");
  const write = (entries: Record<string, string | Buffer>) => {
    for (const [path, content] of Object.entries(entries)) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      if (typeof content === "string" && content.startsWith("symlink:"))
        symlinkSync(content.slice(8), join(dir, path));
      else writeFileSync(join(dir, path), content);
    }
    git("add", "-A");
    git("commit", "-q", "-m", "fixture");
  };
  write(files);
  const head = git("rev-parse", "HEAD");
  const heads: Record<string, string> = { main: head };
  for (const [branch, entries] of Object.entries(branches)) {
    git("checkout", "-q", "-b", branch);
    write(entries);
    heads[branch] = git("rev-parse", "HEAD");
    git("checkout", "-q", "main");
  }
  return { dir, url: `file://${dir}`, heads };
}

describe("onboarding from a git repository", () => {
  // file:// is accepted only in dev mode: these tests run an API of their own with FLEET_DEV_MODE.
  let dev: TestApi;
  let tenant: { workspaceId: string; apiKey: string };
  const repositories: string[] = [];

  beforeAll(async () => {
    dev = await startApi({ FLEET_DEV_MODE: "true" });
    const created = await bootstrapTenant(dev.app.services, {
      tenantName: "git tenant",
      email: `git-${newId()}@example.test`,
    });
    tenant = { workspaceId: created.workspace_id, apiKey: created.api_key };
  });

  afterAll(async () => {
    await dev.app.close();
    await dev.database.close();
    for (const dir of repositories) rmSync(dir, { recursive: true, force: true });
  });

  function repository(...args: Parameters<typeof gitRepository>) {
    const repo = gitRepository(...args);
    repositories.push(repo.dir);
    return repo;
  }

  const onboardGit = (body: Record<string, unknown>) =>
    callAt<Item>(dev.baseUrl, "POST", `/v1/workspaces/${tenant.workspaceId}/fleet-libraries`, {
      token: tenant.apiKey,
      body,
    });

  it("clones the repository and reads fleet.md, or the path and ref asked for", async () => {
    const repo = repository(
      { "fleet.md": TRIAGE, "fleets/other.md": definition("name: Other on main") },
      { feature: { "fleets/other.md": definition("name: Other on feature") } },
    );
    const created = await onboardGit({ git_url: repo.url });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({ name: "Issue triage", visibility: "tenant" });
    expect(created.body.source_ref).toBe(`git:${repo.url}#${repo.heads.main}`);
    expect(created.text).not.toContain("instructions");

    const onBranch = await onboardGit({ git_url: repo.url, ref: "feature", path: "fleets/other.md" });
    expect(onBranch.status, onBranch.text).toBe(201);
    expect(onBranch.body.name).toBe("Other on feature");
    expect(onBranch.body.source_ref).toBe(`git:${repo.url}#${repo.heads.feature}`);
  });

  it("refuses paths that name no regular file, and refs or URLs that are not plain", async () => {
    const repo = repository({
      "fleet.md": TRIAGE,
      "dir/inside.md": TRIAGE,
      "link.md": "symlink:fleet.md",
      "binary.md": Buffer.from([0xff, 0xfe, 0x00, 0x41]),
      "huge.md": definition("name: Huge", "x".repeat(256 * 1024)),
    });
    const expectations: [Record<string, unknown>, number, string, RegExp?][] = [
      [{ git_url: repo.url, path: "missing.md" }, 400, "UZ-LIBRARY-010", /names no file/],
      [{ git_url: repo.url, path: "dir" }, 400, "UZ-LIBRARY-010", /tree, not a regular file/],
      [{ git_url: repo.url, path: "link.md" }, 400, "UZ-LIBRARY-010", /symbolic link/],
      [{ git_url: repo.url, path: "binary.md" }, 400, "UZ-LIBRARY-010", /not UTF-8/],
      [{ git_url: repo.url, path: "huge.md" }, 413, "UZ-LIBRARY-011"],
      [{ git_url: repo.url, path: "../etc/passwd" }, 400, "UZ-LIBRARY-012"],
      [{ git_url: repo.url, path: "/etc/passwd" }, 400, "UZ-LIBRARY-012"],
      [{ git_url: repo.url, ref: "--upload-pack=touch /tmp/x" }, 400, "UZ-LIBRARY-012"],
      [{ git_url: repo.url, ref: "no-such-branch" }, 502, "UZ-LIBRARY-013", /no-such-branch/],
      [{ git_url: `file://${repo.dir}-missing` }, 502, "UZ-LIBRARY-013"],
      [{ git_url: "-uhttps://example.com/x" }, 400, "UZ-LIBRARY-012"],
      [{ git_url: "ssh://git@example.com/repo.git" }, 400, "UZ-LIBRARY-012"],
      [{ git_url: "git@example.com:org/repo.git" }, 400, "UZ-LIBRARY-012"],
      [{ git_url: `${repo.url}#main` }, 400, "UZ-LIBRARY-012"],
    ];
    for (const [body, status, code, detail] of expectations) {
      const response = await onboardGit(body);
      expect(response.status, JSON.stringify(body)).toBe(status);
      expect(response.body.error_code, JSON.stringify(body)).toBe(code);
      if (detail) expect(response.body.detail).toMatch(detail);
    }
  });

  it("never runs a remote helper such as ext::", async () => {
    const marker = join(tmpdir(), `fleet-ext-${newId()}`);
    for (const git_url of [`ext::sh -c touch% ${marker}`, `ext::sh -c "touch ${marker}"`, "fd::7"]) {
      const response = await onboardGit({ git_url });
      expect(response.status, git_url).toBe(400);
      expect(response.body.error_code).toBe("UZ-LIBRARY-012");
    }
    expect(existsSync(marker)).toBe(false);
  });

  it("stops a clone past its byte ceiling, and removes its directory", async () => {
    const repo = repository({ "fleet.md": TRIAGE, "blob.bin": randomBytes(2 * 1024 * 1024) });
    const parent = mkdtempSync(join(tmpdir(), "fleet-library-parent-"));
    try {
      await expect(
        fetchDefinitionFromGit(
          { git_url: repo.url },
          { devMode: true, checkoutBytes: 512 * 1024, tempParent: parent },
        ),
      ).rejects.toMatchObject({ code: "UZ-LIBRARY-011", status: 413 });
      expect(readdirSync(parent)).toEqual([]);
      const fits = await fetchDefinitionFromGit({ git_url: repo.url }, { devMode: true, tempParent: parent });
      expect(fits.text).toBe(TRIAGE);
      expect(readdirSync(parent)).toEqual([]);
    } finally {
      rmSync(parent, { recursive: true, force: true });
    }
  });

  it("kills a clone that runs past its time limit, and removes its directory", async () => {
    // A server that accepts the connection and never answers: git waits until it is killed.
    const sockets: Socket[] = [];
    let closed = 0;
    const server = createServer((socket) => {
      sockets.push(socket);
      socket.resume(); // flowing, so the peer's close is seen
      socket.on("close", () => closed++);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const port = (server.address() as { port: number }).port;
    const parent = mkdtempSync(join(tmpdir(), "fleet-library-parent-"));
    try {
      const started = Date.now();
      await expect(
        fetchDefinitionFromGit(
          { git_url: `https://127.0.0.1:${port}/repo.git` },
          { devMode: true, timeLimitMs: 800, tempParent: parent },
        ),
      ).rejects.toMatchObject({ code: "UZ-LIBRARY-013", detail: expect.stringMatching(/time limit/) });
      expect(Date.now() - started).toBeLessThan(5000);
      expect(sockets.length).toBeGreaterThan(0);
      const deadline = Date.now() + 2000;
      while (closed < sockets.length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      expect(closed).toBe(sockets.length); // the process holding the connection is gone
      expect(readdirSync(parent)).toEqual([]);
    } finally {
      server.close();
      rmSync(parent, { recursive: true, force: true });
    }
  });
});

describe("git sources outside dev mode", () => {
  it("accepts only https to public hosts", async () => {
    const tenant = await seedTenant();
    const repo = gitRepository({ "fleet.md": TRIAGE });
    try {
      for (const git_url of [
        repo.url,
        "http://example.com/repo.git",
        "https://localhost/repo.git",
        "https://127.0.0.1/repo.git",
        "https://10.1.2.3/repo.git",
        "https://192.168.1.10/repo.git",
        "https://169.254.169.254/latest",
        "https://[::1]/repo.git",
        "https://[fd00::1]/repo.git",
        "https://[::ffff:127.0.0.1]/repo.git",
        "https://user:secret@example.com/repo.git",
        "https://example.com/repo.git?x=1",
      ]) {
        const response = await onboard(tenant, { git_url });
        expect(response.status, git_url).toBe(400);
        expect(response.body.error_code, git_url).toBe("UZ-LIBRARY-012");
      }
      const unresolved = await onboard(tenant, { git_url: "https://fleet-library-test.invalid/repo.git" });
      expect(unresolved.status).toBe(502);
      expect(unresolved.body.error_code).toBe("UZ-LIBRARY-013");
    } finally {
      rmSync(repo.dir, { recursive: true, force: true });
    }
  });

  it("fetches nothing for a workspace that is not the caller's (404 before any clone)", async () => {
    const stranger = await seedTenant();
    const owner = await seedTenant();
    const response = await onboard(stranger, { git_url: "https://127.0.0.1/repo.git" }, owner.workspaceId);
    expect(response.status).toBe(404);
    expect(response.body.error_code).toBe("UZ-WORKSPACE-002");
  });
});
