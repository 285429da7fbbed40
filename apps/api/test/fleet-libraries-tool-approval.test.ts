import { describe, expect, it } from "vitest";
import { createEntry, definition, list } from "./fleet-library-fixtures.ts";
import { seedTenant } from "./harness.ts";

// `requires.tools` entries as objects `{name, approval}` beside plain names (issue 32, gated tools).
describe("a definition's tool entries with approval", () => {
  it("accepts objects beside plain names, keeping the names in the requirements", async () => {
    const tenant = await seedTenant();
    const created = await createEntry(tenant, {
      definition: definition(
        [
          "name: Gated",
          "requires:",
          "  tools:",
          "    - memory_write",
          "    - name: http_request",
          "      approval: required",
          "    - {name: schedule_create}",
        ].join("\n"),
      ),
    });
    expect(created.status, created.text).toBe(201);
    expect(created.body.requirements.tools).toEqual(["memory_write", "http_request", "schedule_create"]);
  });

  it("refuses a bad entry with 400 UZ-LIBRARY-010 naming it, storing nothing", async () => {
    const tenant = await seedTenant();
    const tools = (lines: string) => definition(`name: Bad tool\nrequires:\n  tools:\n${lines}`);
    const cases: [string, RegExp][] = [
      [
        tools("    - a\n    - {name: b, approve: required}"),
        /^requires\.tools\[1\] has unknown key approve\.$/,
      ],
      [
        tools("    - {name: b, approval: optional}"),
        /^requires\.tools\[0\]\.approval must be "required" \(or left out\)\.$/,
      ],
      [tools("    - {name: b, approval: true}"), /^requires\.tools\[0\]\.approval must be "required"/],
      [
        tools("    - http_request\n    - {name: http_request, approval: required}"),
        /^requires\.tools\[1\] names the tool http_request again \(requires\.tools\[0\] already does\)\.$/,
      ],
      [tools("    - {approval: required}"), /^requires\.tools\[0\]\.name is required\.$/],
      [tools("    - {name: 'two words'}"), /^requires\.tools\[0\]\.name must be a non-empty name/],
      [tools("    - 12"), /^requires\.tools\[0\] must be a tool name or \{name, approval, blast_radius\}\.$/],
      [
        tools("    - [a, b]"),
        /^requires\.tools\[0\] must be a tool name or \{name, approval, blast_radius\}\.$/,
      ],
    ];
    for (const [text, detail] of cases) {
      const response = await createEntry(tenant, { definition: text });
      expect(response.status, text).toBe(400);
      expect(response.body.error_code, text).toBe("UZ-LIBRARY-010");
      expect(response.body.detail, text).toMatch(detail);
    }
    expect((await list(tenant)).body.items.filter((item) => item.visibility === "tenant")).toEqual([]);
  });

  it("keeps an object's name under the tool-name ceiling (413 UZ-LIBRARY-011)", async () => {
    const tenant = await seedTenant();
    const response = await createEntry(tenant, {
      definition: definition(
        `name: n\nrequires:\n  tools:\n    - {name: ${"t".repeat(201)}, approval: required}`,
      ),
    });
    expect(response.status).toBe(413);
    expect(response.body.error_code).toBe("UZ-LIBRARY-011");
    expect(response.body.detail).toMatch(/^requires\.tools\[0\]\.name must be at most 200 bytes/);
  });
});
