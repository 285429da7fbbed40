import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { OutputOf } from "@fleet/contracts";
import type { getLibrary } from "@fleet/contracts/fleet-libraries/get-library";
import { describe, expect, it } from "vitest";
import { newId } from "../src/runtime/ids.ts";
import {
  createEntry,
  definition,
  everything,
  type Item,
  newWorkspace,
  TRIAGE,
} from "./fleet-library-fixtures.ts";
import { call, operatorToken, seedMember, seedTenant } from "./harness.ts";

describe("creating a library entry from a fleet definition", () => {
  it("stores an upload and answers its metadata only; the one-entry read shows it in full", async () => {
    const tenant = await seedTenant();
    const created = await createEntry(tenant, { definition: TRIAGE });
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
        // No tool is marked approval: required (the read carries the marks, none here).
        tool_approvals: [],
        network_hosts: ["api.github.com", "hooks.slack.com"],
        runner_labels: ["linux"],
      },
      model: null,
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

  it("creates platform entries with an operator token, visible to every workspace", async () => {
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
    const created = await createEntry(owner, { definition: definition("name: Private") });
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

  it("needs library:write to create an entry and fleet:read to read", async () => {
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
      const response = await createEntry(tenant, body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body.error_code).toBe("UZ-REQ-001");
    }
  });

  it("parses the seed definition and the documented example", async () => {
    const tenant = await seedTenant();
    const seed = readFileSync(
      join(import.meta.dirname, "..", "src", "services", "fleet-libraries", "seed", "echo-fleet.md"),
      "utf8",
    );
    const created = await createEntry(tenant, { definition: seed });
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
