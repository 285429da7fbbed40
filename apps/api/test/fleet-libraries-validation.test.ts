import { describe, expect, it } from "vitest";
import { createEntry, definition, expectRefused, list } from "./fleet-library-fixtures.ts";
import { seedTenant } from "./harness.ts";

// What creating an entry refuses: malformed definitions, and every size ceiling exactly at and one past it.
describe("creating a library entry from a fleet definition", () => {
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
    await expectRefused(tenant, cases);
    // A NUL character is refused for every string at the contract, before the definition is read.
    const nul = await createEntry(tenant, { definition: definition("name: Nul", "Stop\u0000here") });
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
    const atLimits = await createEntry(tenant, { definition: definition(front()) });
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
      const response = await createEntry(tenant, { definition: definition(frontMatter) });
      expect(response.status, what).toBe(413);
      expect(response.body.error_code, what).toBe("UZ-LIBRARY-011");
      expect(response.body.detail, what).toMatch(detail);
    }
  });

  it("caps the definition at 256 KiB (413 UZ-LIBRARY-011) and the body at 1 MiB (413 UZ-REQ-006)", async () => {
    const tenant = await seedTenant();
    const fits = definition("name: Big", "x".repeat(256 * 1024 - 40));
    expect(Buffer.byteLength(fits)).toBeLessThanOrEqual(256 * 1024);
    expect((await createEntry(tenant, { definition: fits })).status).toBe(201);
    const over = await createEntry(tenant, {
      definition: definition("name: Bigger", "x".repeat(256 * 1024)),
    });
    expect(over.status).toBe(413);
    expect(over.body.error_code).toBe("UZ-LIBRARY-011");
    expect(over.body.detail).toContain("262144");
    const huge = await createEntry(tenant, { definition: definition("name: Huge", "x".repeat(1024 * 1024)) });
    expect(huge.status).toBe(413);
    expect(huge.body.error_code).toBe("UZ-REQ-006");
  });
});
