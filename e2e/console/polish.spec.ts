import { randomUUID } from "node:crypto";
import type { Locator } from "@playwright/test";
import { expect, looksAtSizes, signInByLink, test } from "../support/fixtures.ts";
import {
  addTenantEntry,
  call,
  definition,
  installFleet,
  messageFleet,
  TestRunner,
} from "../support/fleet-api.ts";
import { addMember } from "../support/fleetctl.ts";

/** Whether an element shows whole inside the box that scrolls it: not cut at its right edge. */
async function unclipped(element: Locator, scroller: Locator) {
  const box = (await element.boundingBox())!;
  const frame = (await scroller.boundingBox())!;
  return box.x >= frame.x - 0.5 && box.x + box.width <= frame.x + frame.width + 0.5;
}

/** How many lines a piece of text takes. */
function lines(element: Locator) {
  return element.evaluate((node) => {
    const range = document.createRange();
    range.selectNodeContents(node);
    return new Set(Array.from(range.getClientRects(), (rect) => Math.round(rect.top))).size;
  });
}

test.describe("Polish (issue 30 §6)", () => {
  test.slow();

  test("API keys: Revoke and Delete show whole at 1440, long scopes and all", async ({
    page,
    tenant,
    apiUrl,
  }) => {
    const scopes = [
      "fleet:read",
      "fleet:write",
      "approval:read",
      "approval:resolve",
      "secret:read",
      "billing:read",
    ];
    for (const key_name of ["deploy-bot-with-a-long-name", "nightly-report"]) {
      await call(apiUrl, tenant.api_key, "POST", "/v1/api-keys", {
        key_name,
        scopes,
        description: "Deploys the web app from CI on every merge to main.",
      });
    }
    const keys = await call<{ items: { id: string; key_name: string }[] }>(
      apiUrl,
      tenant.api_key,
      "GET",
      "/v1/api-keys",
    );
    const revoked = keys.items.find((key) => key.key_name === "nightly-report")!;
    await call(apiUrl, tenant.api_key, "PATCH", `/v1/api-keys/${revoked.id}`, { active: false });
    await page.setViewportSize({ width: 1440, height: 900 });
    await signInByLink(page, tenant);
    await page.goto("/api-keys");
    const scroller = page
      .locator(".ui-table-scroll")
      .filter({ has: page.getByRole("table", { name: "Tenant API keys" }) });
    for (const name of ["Revoke API key deploy-bot-with-a-long-name", "Delete API key nightly-report"]) {
      const button = page.getByRole("button", { name });
      await expect(button).toBeVisible();
      expect(await unclipped(button, scroller), name).toBe(true);
    }
    // Nothing to scroll to at 1440: the whole row is in view.
    expect(await scroller.evaluate((node) => node.scrollWidth - node.clientWidth)).toBeLessThanOrEqual(1);
    await looksAtSizes(page, "api-keys", true);
  });

  test("members: an email is never broken mid-word", async ({ page, tenant }) => {
    // No hyphen: a hyphen is a place to break a line, and this checks the places that are not.
    const email = `alexandra.longname.${randomUUID().slice(0, 6)}@engineering.example.test`;
    await addMember(tenant.tenant_id, email, "fleet:read approval:read approval:resolve");
    await signInByLink(page, tenant);
    for (const width of [1440, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto("/members");
      const name = page.getByRole("row", { name: new RegExp(email) }).locator(".key-name");
      await expect(name).toContainText(email);
      expect(await lines(name.getByText(email, { exact: true }).or(name).first()), `${width}`).toBe(1);
    }
    await looksAtSizes(page, "members", true);
  });

  test("billing: the axis of a period with no spend reads in cents, not $0.000000001", async ({
    page,
    tenant,
  }) => {
    await signInByLink(page, tenant);
    await page.goto(`/billing?workspace=${tenant.workspace_id}`);
    const ticks = page.locator(".spend-chart__tick");
    await expect(ticks.first()).toBeVisible();
    const labels = await ticks.allTextContents();
    expect(labels.join(" ")).not.toContain("0.000000001");
    expect(labels).toEqual(expect.arrayContaining(["$0", "$0.01"]));
    await looksAtSizes(page, "billing", true);
  });

  test("cron: 61 in the minute says the minute must be 0–59, in the API's words", async ({
    page,
    tenant,
    apiUrl,
  }) => {
    const entry = await addTenantEntry(
      apiUrl,
      tenant,
      definition({ name: "Cron words", runnerLabels: ["e2e-nobody-cron"] }),
    );
    const fleet = await installFleet(apiUrl, tenant, entry);
    await signInByLink(page, tenant);
    await page.goto(`/fleets/${fleet.fleet_id}?workspace=${tenant.workspace_id}&tab=schedules`);
    await page.getByRole("button", { name: "Create schedule" }).click();
    const create = page.getByRole("dialog", { name: "Schedule Cron words" });
    await create.getByLabel("Cron").fill("61 * * * *");
    await expect(create.getByText('Cron minute must be 0–59, not "61".')).toBeVisible();
    await expect(create.getByText("Not a five-field expression yet.")).toHaveCount(0);
    await create.getByLabel("Cron").fill("0 9 * * 8");
    await expect(create.getByText('Cron day of week must be 0–7 or SUN–SAT, not "8".')).toBeVisible();
    await looksAtSizes(page, "cron-words", true);
  });

  test("the shortcut sheet keeps Ctrl on one line, at 1440 and 390", async ({ page, tenant }) => {
    await signInByLink(page, tenant);
    for (const width of [1440, 390]) {
      await page.setViewportSize({ width, height: 844 });
      // A fresh page each width: after the sheet closes, focus is back on whatever opened it.
      await page.reload();
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
      const sheet = page.getByRole("dialog", { name: "Keyboard shortcuts" });
      // The reloaded page's HTML is on screen before its scripts listen for keys: press until they do.
      await expect(async () => {
        await page.keyboard.press("?");
        await expect(sheet).toBeVisible({ timeout: 2_000 });
      }).toPass({ timeout: 20_000 });
      const ctrl = sheet.locator("kbd", { hasText: /^Ctrl$/ });
      await expect(ctrl).toBeVisible();
      expect(await lines(ctrl), `${width}`).toBe(1);
      expect(await ctrl.evaluate((node) => node.scrollWidth <= node.clientWidth + 1)).toBe(true);
      if (width === 390) await looksAtSizes(page, "shortcuts", true);
      await sheet.getByRole("button", { name: "Close", exact: true }).click();
    }
  });

  test("a fleet that processed one event says 1 event processed", async ({ page, tenant, apiUrl }) => {
    const runner = new TestRunner(apiUrl);
    const entry = await addTenantEntry(
      apiUrl,
      tenant,
      definition({ name: "Counted", runnerLabels: [runner.label] }),
    );
    const fleet = await installFleet(apiUrl, tenant, entry);
    await messageFleet(apiUrl, tenant, fleet.fleet_id, "hello");
    await runner.report(await runner.lease(), { outcome: "processed", response_text: "hi" });
    await signInByLink(page, tenant);
    await page.goto(`/fleets/${fleet.fleet_id}?workspace=${tenant.workspace_id}`);
    await expect(page.getByText("1 event processed", { exact: true })).toBeVisible();
    await expect(page.getByText(/1 events/)).toHaveCount(0);
  });
});
