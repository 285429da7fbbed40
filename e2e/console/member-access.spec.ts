import { randomUUID } from "node:crypto";
import { expect, signInByLink, test } from "../support/fixtures.ts";
import { addMember } from "../support/fleetctl.ts";

test.describe("A member without workspace:admin", () => {
  test("lists the workspaces, so a page opened bare shows the tenant's workspace, not a refusal", async ({
    page,
    tenant,
  }) => {
    const email = `reader-${randomUUID().slice(0, 8)}@example.test`;
    await addMember(tenant.tenant_id, email, "fleet:read");
    await signInByLink(page, { ...tenant, email });

    await page
      .getByRole("navigation", { name: "Main" })
      .getByRole("link", { name: /Fleets/ })
      .click();
    await expect(page.getByRole("heading", { level: 1, name: "Fleets" })).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`/fleets\\?workspace=${tenant.workspace_id}$`));
    await expect(page.getByText("No fleets in default yet", { exact: true })).toBeVisible();
    await expect(page.getByText(/workspace:admin/)).toHaveCount(0);
    await expect(page.getByLabel("Workspace")).toHaveValue(tenant.workspace_id);
  });
});
