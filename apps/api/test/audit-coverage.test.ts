import { describe, expect, it } from "vitest";
import { operations } from "../src/router/root.ts";
import {
  type AuditedCase,
  type CaseEnv,
  type CoverageEntry,
  exemptions,
  expectAudited,
  isExempt,
} from "./audit-coverage-fixtures.ts";
import { otherCases } from "./audit-coverage-other-cases.ts";
import { tenantCases } from "./audit-coverage-tenant-cases.ts";
import { seedTenant } from "./harness.ts";

const tenantPlane: Record<string, AuditedCase> = Object.fromEntries(
  Object.entries(tenantCases).map(([id, entry]) => [id, { ...entry, plane: "tenant" as const }]),
);

/** Every operation id named once, across the three tables. */
function coverage(): Record<string, CoverageEntry> {
  const tables = [exemptions, tenantPlane, otherCases];
  const ids = tables.flatMap((table) => Object.keys(table));
  const twice = ids.filter((id, index) => ids.indexOf(id) !== index);
  expect(twice, "operations named in more than one table").toEqual([]);
  return Object.assign({}, ...tables);
}

describe("audit coverage: every mutating operation records an audit row", () => {
  it("names every non-GET operation of the contracts: a case and the action it records, or an exemption and why", () => {
    const table = coverage();
    const mutating = operations.filter((op) => op.method !== "GET").map((op) => op.id);
    const missing = mutating.filter((id) => !(id in table)).sort();
    expect(missing, "mutating operations with neither an audit case nor an exemption").toEqual([]);
    const stale = Object.keys(table).filter((id) => !mutating.includes(id));
    expect(stale, "entries naming no mutating operation").toEqual([]);
    for (const [id, entry] of Object.entries(table)) {
      if (isExempt(entry)) expect(entry.exempt.length, `${id}'s reason`).toBeGreaterThan(20);
      else expect(entry.action, id).toMatch(/^[a-z_]+(\.[a-z_]+)+$/);
    }
  });

  // The vendor fakes are not needed here: these cases run on the worker's shared API.
  const noVendors = {} as CaseEnv;
  it.each(Object.entries(tenantPlane))("%s records its action under its own request id", async (_, entry) => {
    await expectAudited(entry, await seedTenant("audited"), noVendors);
  });
});
