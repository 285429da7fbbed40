import { randomUUID } from "node:crypto";
import { seriousViolations } from "../support/axe.ts";
import { expect, screenshot, signInByLink, test } from "../support/fixtures.ts";

test.describe("Members", () => {
  // Each test signs in, builds a page and runs axe on a shared two-core machine: give it room.
  test.slow();
  test("invite with scopes shows the one-time link; change and remove with a typed confirmation", async ({
    page,
    tenant,
  }, testInfo) => {
    await signInByLink(page, tenant);
    await page
      .getByRole("navigation", { name: "Main" })
      .getByRole("link", { name: /Members/ })
      .click();
    await expect(page.getByRole("heading", { level: 1, name: "Members" })).toBeVisible();
    const self = page.getByRole("row", { name: new RegExp(tenant.email) });
    await expect(self).toContainText("(you)");
    await expect(self).toContainText("Owner");
    expect(await seriousViolations(page)).toEqual([]);

    const email = `invitee-${randomUUID().slice(0, 8)}@example.test`;
    await page.getByRole("button", { name: "Invite member" }).click();
    const invite = page.getByRole("dialog", { name: "Invite a member" });
    await invite.getByLabel("Email").fill(email);
    await invite.getByRole("checkbox", { name: "secret:read" }).check();
    expect(await seriousViolations(page)).toEqual([]);
    await invite.getByRole("button", { name: "Invite member" }).click();
    const reveal = page.getByRole("dialog", { name: "Pass on the sign-in link" });
    await expect(reveal.getByRole("textbox", { name: `Sign-in link for ${email}` })).toHaveValue(
      /\/auth\/link\?token=[\w-]{43}$/,
    );
    await screenshot(page, testInfo, "members-invite-link");
    // The link is shown once: Esc does not close it.
    await page.keyboard.press("Escape");
    await expect(reveal).toBeVisible();
    await reveal.getByRole("button", { name: "Done" }).click();

    const row = page.getByRole("row", { name: new RegExp(email) });
    await expect(row).toContainText("fleet:read");
    await expect(row).toContainText("secret:read");
    await expect(row).toContainText("Member");

    await row.getByRole("button", { name: `Change member ${email}` }).click();
    const edit = page.getByRole("dialog", { name: `Change ${email}` });
    await edit.getByRole("checkbox", { name: "fleet:write" }).check();
    await edit.getByRole("checkbox", { name: "secret:read" }).uncheck();
    await edit.getByRole("button", { name: "Save changes" }).click();
    await expect(edit).toHaveCount(0);
    await expect(row).toContainText("fleet:write");
    await expect(row).not.toContainText("secret:read");

    await row.getByRole("button", { name: `Remove member ${email}` }).click();
    const remove = page.getByRole("dialog", { name: `Remove ${email}?` });
    const confirm = remove.getByRole("button", { name: "Remove member" });
    await expect(confirm).toHaveAttribute("aria-disabled", "true");
    await remove.getByLabel(`Type ${email} to confirm`).fill(email);
    await screenshot(page, testInfo, "members-remove");
    await confirm.click();
    await expect(remove).toHaveCount(0);
    await expect(page.getByRole("row", { name: new RegExp(email) })).toHaveCount(0);
  });

  test("the last owner cannot be removed, and the page says so in words", async ({
    page,
    tenant,
  }, testInfo) => {
    await signInByLink(page, tenant);
    await page.goto("/members");
    await page.getByRole("button", { name: `Remove member ${tenant.email}` }).click();
    const remove = page.getByRole("dialog", { name: `Remove ${tenant.email}?` });
    await remove.getByLabel(`Type ${tenant.email} to confirm`).fill(tenant.email);
    await remove.getByRole("button", { name: "Remove member" }).click();
    const alert = remove.getByRole("alert", { name: "Last owner" });
    await expect(alert).toContainText("The tenant's last owner cannot be removed; make another owner first.");
    await expect(alert).toContainText("UZ-INV-004");
    await screenshot(page, testInfo, "members-last-owner");
    await remove.getByRole("button", { name: "Cancel" }).click();
    await expect(page.getByRole("row", { name: new RegExp(tenant.email) })).toBeVisible();
  });
});
