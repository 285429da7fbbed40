import { expect, screenshot, signInByLink, test } from "../support/fixtures.ts";
import { addTenantEntry, call, definition, installFleet, requesterToken } from "../support/fleet-api.ts";

test.describe("Integration grants", () => {
  test("a fleet's request is answered in the inbox, listed on the fleet page and revoked", async ({
    page,
    tenant,
    apiUrl,
  }, testInfo) => {
    const entry = await addTenantEntry(
      apiUrl,
      tenant,
      definition({ name: "Triage", runnerLabels: ["e2e-nobody-grants"] }),
    );
    const fleet = await installFleet(apiUrl, tenant, entry);
    const request = await call<{ grant_id: string; gate_id: string }>(
      apiUrl,
      // Asked by another member: the owner, who answers, did not cause the gate.
      await requesterToken(apiUrl, tenant),
      "POST",
      `/v1/workspaces/${tenant.workspace_id}/fleets/${fleet.fleet_id}/integration-requests`,
      { service: "github", reason: "Label and close stale issues." },
    );
    await signInByLink(page, tenant);
    await page.goto(`/fleets/${fleet.fleet_id}?workspace=${tenant.workspace_id}&tab=grants`);
    const row = page.getByRole("row", { name: /github/ });
    await expect(row).toHaveAttribute("data-status", "pending");
    await expect(row).toContainText("Label and close stale issues.");

    // The request's gate is answered in the inbox.
    await row.getByRole("link", { name: "Answer the request for github" }).click();
    await expect(page).toHaveURL(new RegExp(`/approvals\\?.*gate=${request.gate_id}`));
    const pane = page.locator(`section[data-gate-id="${request.gate_id}"]`);
    await expect(pane).toContainText("integration_grant");
    await pane.getByRole("button", { name: "Approve", exact: true }).click();
    await expect(page.getByRole("status").filter({ hasText: /^Approved .* on Triage\.$/ })).toBeVisible();

    await page.goto(`/fleets/${fleet.fleet_id}?workspace=${tenant.workspace_id}&tab=grants`);
    await expect(row).toHaveAttribute("data-status", "approved");
    await expect(row).toContainText(tenant.email);
    await expect(row.getByRole("button", { name: `Copy the id of ${tenant.email}` })).toBeVisible();
    await screenshot(page, testInfo, "grants-approved");

    await row.getByRole("button", { name: "Revoke grant github" }).click();
    const dialog = page.getByRole("dialog", { name: "Revoke github for Triage?" });
    await expect(dialog).toContainText("Triage can no longer use github");
    await dialog.getByRole("button", { name: "Revoke grant" }).click();
    await expect(dialog).toBeHidden();
    await expect(row).toHaveAttribute("data-status", "revoked");
    await expect(page.getByRole("status").filter({ hasText: "Revoked github." })).toBeVisible();
    // Revoked: revoking again is unavailable, and says why.
    await row.getByRole("button", { name: "Revoke grant github" }).focus();
    await expect(page.getByRole("tooltip", { name: /Already revoked/ })).toBeVisible();
  });
});
