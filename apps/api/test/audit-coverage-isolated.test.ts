import { describe, it } from "vitest";
import { expectAudited } from "./audit-coverage-fixtures.ts";
import { otherCases } from "./audit-coverage-other-cases.ts";
import { useFakeVendors } from "./connector-fixtures.ts";
import { seedTenant } from "./harness.ts";

// Operator acts change what every tenant shares (the platform default, the catalogue), and the connector
// cases need the vendor fakes: both run on an API and database of this file's own.
const vendors = useFakeVendors();

describe("audit coverage: operator-plane and vendor-backed operations", () => {
  it.each(Object.entries(otherCases))("%s records its action under its own request id", async (_, entry) => {
    await expectAudited(entry, await seedTenant("audited"), vendors);
  });
});
