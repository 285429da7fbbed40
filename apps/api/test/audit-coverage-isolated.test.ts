import { type FakeModelVendor, modelVendorEnv, startFakeModelVendor } from "@fleet/testing/fake-model-vendor";
import { afterAll, beforeAll, describe, it } from "vitest";
import { expectAudited } from "./audit-coverage-fixtures.ts";
import { otherCases } from "./audit-coverage-other-cases.ts";
import { useFakeVendors } from "./connector-fixtures.ts";
import { seedTenant } from "./harness.ts";

// Operator acts change what every tenant shares (the platform default, the catalogue), and the connector
// cases need the vendor fakes: both run on an API and database of this file's own. The provider test
// calls the model vendor's fake, so it never reaches the internet.
let models: FakeModelVendor | null = null;
beforeAll(async () => {
  models = await startFakeModelVendor();
});
afterAll(() => models?.close());
const vendors = useFakeVendors(() => modelVendorEnv(models!));

describe("audit coverage: operator-plane and vendor-backed operations", () => {
  it.each(Object.entries(otherCases))("%s records its action under its own request id", async (_, entry) => {
    await expectAudited(entry, await seedTenant("audited"), vendors);
  });
});
