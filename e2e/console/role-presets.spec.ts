import { randomUUID } from "node:crypto";
import { mkdirSync } from "node:fs";
import { type RolePresetId, rolePresets } from "@fleet/contracts";
import type { Browser, Locator, Page, TestInfo } from "@playwright/test";
import { expect as baseExpect, LANDING_URL, screenshot, test } from "../support/fixtures.ts";
import {
  addTenantEntry,
  call,
  definition,
  installFleet,
  messageFleet,
  TestRunner,
} from "../support/fleet-api.ts";
import { loginLink, type Tenant } from "../support/fleetctl.ts";

/** Each person signs in and walks a dozen pages on two shared cores: allow every wait more time. */
const expect = baseExpect.configure({ timeout: 30_000 });

/** Where the screenshots looked at during development go, besides the test's own artifacts. */
const SHOTS = process.env.E2E_SHOTS_DIR ?? "/tmp/shots/members";

async function shot(page: Page, testInfo: TestInfo, name: string) {
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: `${SHOTS}/${name}.png`, animations: "disabled" });
  await screenshot(page, testInfo, name);
}

/** The navigation's pages, by what each preset's scopes make of them. */
type Reach = Record<"open" | "disabled" | "hidden", string[]>;

const everyday = [
  "Overview",
  "Approvals",
  "Runners",
  "Fleets",
  "Library",
  "Models",
  "Events",
  "Connectors",
  "Secrets",
];
const expected: Record<RolePresetId, Reach> = {
  viewer: { open: everyday, disabled: ["API keys", "Webhooks", "Billing"], hidden: ["Members", "Audit log"] },
  approver: {
    open: everyday,
    disabled: ["API keys", "Webhooks", "Billing"],
    hidden: ["Members", "Audit log"],
  },
  operator: {
    open: [...everyday, "API keys", "Webhooks", "Billing"],
    disabled: [],
    hidden: ["Members", "Audit log"],
  },
  owner: {
    open: [...everyday, "API keys", "Webhooks", "Billing", "Members", "Audit log"],
    disabled: [],
    hidden: [],
  },
};

/** Signs a page in by a one-time link and waits for the overview to write the workspace into the URL. */
async function signIn(page: Page, url: string): Promise<Page> {
  await page.goto(url);
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page).toHaveURL(LANDING_URL);
  // Every preset reads fleets: the overview writes the tenant's workspace into the URL.
  await expect.poll(() => /[?&]workspace=/.test(page.url())).toBe(true);
  return page;
}

/** A browser of the member's own (the owner's stays signed in), signed in by their one-time link. */
async function signInAs(browser: Browser, url: string): Promise<Page> {
  const context = await browser.newContext({ baseURL: process.env.E2E_CONSOLE_URL });
  return signIn(await context.newPage(), url);
}

function mainNav(page: Page) {
  return page.getByRole("navigation", { name: "Main" });
}

/** Opens a page from the navigation and waits until it has loaded what it shows; it must not be refused. */
async function walkTo(page: Page, label: string) {
  const menu = page.getByRole("button", { name: "Navigation menu" });
  if (await menu.isVisible()) await menu.click();
  await mainNav(page)
    .getByRole("link", { name: new RegExp(`^${label}`) })
    .click();
  await expect(page.getByRole("heading", { level: 1, name: label })).toBeVisible();
  const main = page.getByRole("main");
  // Loading states say "Loading…"; once none is left, every refusal would be on screen.
  await expect(main.getByText(/Loading/)).toHaveCount(0);
  await expect(main.getByText("Missing scope")).toHaveCount(0);
  // A refusal says "This request needs the scope"; an action shown disabled may say what it needs.
  await expect(main.getByText(/request needs the scope/)).toHaveCount(0);
}

/** Checks the navigation against a preset's reach: open pages are links, the rest disabled or absent. */
async function checkNavigation(page: Page, reach: Reach) {
  const nav = mainNav(page);
  for (const label of reach.open) {
    await expect(nav.getByRole("link", { name: new RegExp(`^${label}`), disabled: false })).toBeVisible();
  }
  for (const label of reach.disabled) {
    const item = nav.getByRole("link", { name: label, exact: true });
    await expect(item).toHaveAttribute("aria-disabled", "true");
    await expect(item).toHaveAccessibleDescription(/Needs the scope \w+:\w+/);
  }
  for (const label of reach.hidden) {
    await expect(nav.getByText(label, { exact: true })).toHaveCount(0);
  }
}

/** A button the preset may use is enabled; one it may not is disabled, naming the scope to ask for. */
async function expectGuarded(button: Locator, scope: string, held: readonly string[]) {
  await expect(button).toBeVisible();
  if (held.includes(scope)) {
    await expect(button).not.toHaveAttribute("aria-disabled", "true");
    return;
  }
  await expect(button).toHaveAttribute("aria-disabled", "true");
  await expect(button).toHaveAccessibleDescription(`Needs the scope ${scope}: ask a tenant administrator.`);
}

/**
 * The fleet and secret pages offer what the preset's scopes allow: what the API would refuse (a Viewer's
 * or an Approver's Kill, an Operator's Delete) is shown disabled with its scope, never offered and refused.
 */
async function checkActions(
  page: Page,
  tenant: Tenant,
  fleet: { id: string; name: string; gateId: string },
  id: RolePresetId,
) {
  const held = rolePresets.find((candidate) => candidate.id === id)!.scopes;
  // A gate: the Approver and up answer it; a Viewer reads it, told which scope answering takes.
  await page.goto(`/approvals?workspace=${tenant.workspace_id}&gate=${fleet.gateId}`);
  const gate = page.getByRole("region", { name: "deploy · look" });
  await expect(gate).toBeVisible();
  const canAnswer = held.includes("approval:resolve");
  await expect(gate.getByRole("button", { name: "Approve", exact: true })).toHaveCount(canAnswer ? 1 : 0);
  await expect(gate.getByText("Answering needs the scope approval:resolve")).toHaveCount(canAnswer ? 0 : 1);
  await expect(page.getByRole("checkbox", { name: "Select all on this page" })).toHaveCount(
    canAnswer ? 1 : 0,
  );
  await page.goto(`/fleets/${fleet.id}?workspace=${tenant.workspace_id}`);
  for (const verb of ["Pause", "Stop", "Kill"]) {
    await expectGuarded(
      page.getByRole("button", { name: `${verb} fleet ${fleet.name}` }),
      "fleet:write",
      held,
    );
  }
  await expectGuarded(page.getByRole("button", { name: `Delete fleet ${fleet.name}` }), "fleet:admin", held);
  const box = page.getByRole("textbox", { name: `Message to ${fleet.name}` });
  if (held.includes("fleet:write")) await expect(box).toBeEnabled();
  else {
    await expect(box).toBeDisabled();
    await expect(box).toHaveAccessibleDescription(/Sending a message needs the scope fleet:write/);
  }
  await page.goto(`/fleets?workspace=${tenant.workspace_id}`);
  await expectGuarded(page.getByRole("button", { name: "Install fleet" }).first(), "fleet:write", held);
  const more = page.getByRole("button", { name: `More actions for fleet ${fleet.name}` });
  await expect(more).toHaveCount(held.includes("fleet:write") ? 1 : 0);
  await page.goto(`/secrets?workspace=${tenant.workspace_id}`);
  await expectGuarded(page.getByRole("button", { name: "Create secret" }).first(), "secret:write", held);
}

/** Invites a member with a preset's scopes and role through the API, as a script would; the link signs them in. */
async function inviteWithPreset(apiUrl: string, tenant: Tenant, id: RolePresetId): Promise<string> {
  const preset = rolePresets.find((candidate) => candidate.id === id)!;
  const invited = await call<{ sign_in_url: string }>(
    apiUrl,
    tenant.api_key,
    "POST",
    "/v1/tenants/me/members",
    {
      email: `${id}-${randomUUID().slice(0, 8)}@example.test`,
      scopes: preset.scopes,
      role: preset.role,
    },
  );
  return invited.sign_in_url;
}

test.describe("Role presets", () => {
  test.describe.configure({ timeout: 300_000 });

  test("alice, invited with the dialog's suggested scopes plus approval:resolve, works: Overview, Approvals, Fleets, Secrets and the inbox without ?workspace=", async ({
    page,
    browser,
    tenant,
  }, testInfo) => {
    await signIn(page, await loginLink(tenant.email));
    await page.goto("/members");
    await page.getByRole("button", { name: "Invite member" }).click();
    const invite = page.getByRole("dialog", { name: "Invite a member" });
    const email = `alice-${randomUUID().slice(0, 8)}@example.test`;
    await invite.getByLabel("Email").fill(email);
    // The suggestion is the least preset; one more tick makes it an Approver.
    await expect(invite.getByRole("radio", { name: "Viewer" })).toBeChecked();
    await invite.getByRole("checkbox", { name: "approval:resolve" }).check();
    await expect(invite.getByRole("radio", { name: "Approver" })).toBeChecked();
    await shot(page, testInfo, "invite-approver");
    await invite.getByRole("button", { name: "Invite member" }).click();
    const reveal = page.getByRole("dialog", { name: "Pass on the sign-in link" });
    const url = await reveal.getByRole("textbox", { name: `Sign-in link for ${email}` }).inputValue();

    const alice = await signInAs(browser, url);
    await expect(alice.getByRole("main").getByText(/workspace:admin/)).toHaveCount(0);
    await expect(alice).toHaveURL(new RegExp(`/overview\\?workspace=${tenant.workspace_id}$`));
    for (const label of ["Overview", "Approvals", "Fleets", "Secrets"]) {
      await walkTo(alice, label);
      await expect(alice.getByText(/workspace:admin/)).toHaveCount(0);
    }
    await checkNavigation(alice, expected.approver);
    await shot(alice, testInfo, "alice-secrets");
    // The disabled pages say why on hover or focus, on a phone's folded menu too, light and dark.
    await mainNav(alice).getByRole("link", { name: "Billing", exact: true }).hover();
    await shot(alice, testInfo, "alice-nav-1440-light");
    await alice.setViewportSize({ width: 390, height: 844 });
    await alice.emulateMedia({ colorScheme: "dark" });
    await alice.getByRole("button", { name: "Navigation menu" }).click();
    await mainNav(alice).getByRole("link", { name: "API keys", exact: true }).focus();
    await shot(alice, testInfo, "alice-nav-390-dark");
    await alice.keyboard.press("Escape");
    await alice.setViewportSize({ width: 1360, height: 860 });
    await alice.emulateMedia({ colorScheme: "light" });

    // The inbox by its bare address: the workspace is found and written into the URL, no refusal.
    await alice.goto("/approvals");
    await expect(alice).toHaveURL(new RegExp(`/approvals\\?workspace=${tenant.workspace_id}`));
    await expect(alice.getByText("Nothing waits for an answer", { exact: false }).first()).toBeVisible();
    await expect(alice.getByRole("main").getByRole("alert")).toHaveCount(0);
    await shot(alice, testInfo, "alice-inbox");
    await alice.context().close();
  });

  for (const preset of rolePresets) {
    test(`the ${preset.label} preset reaches the pages of the preset and sees the others disabled or not at all`, async ({
      browser,
      tenant,
      apiUrl,
    }, testInfo) => {
      const name = `Guarded ${randomUUID().slice(0, 6)}`;
      const runner = new TestRunner(apiUrl);
      const entry = await addTenantEntry(apiUrl, tenant, definition({ name, runnerLabels: [runner.label] }));
      const fleet = await installFleet(apiUrl, tenant, entry, name);
      await messageFleet(apiUrl, tenant, fleet.fleet_id, "Look around.");
      const gate = await runner.openGate(await runner.lease(), {
        action_name: "look",
        blast_radius: "staging",
      });
      const page = await signInAs(browser, await inviteWithPreset(apiUrl, tenant, preset.id));
      const reach = expected[preset.id];
      await checkNavigation(page, reach);
      await shot(page, testInfo, `nav-${preset.id}`);
      for (const label of reach.open) await walkTo(page, label);
      await checkActions(page, tenant, { id: fleet.fleet_id, name, gateId: gate.gate_id }, preset.id);
      await shot(page, testInfo, `secrets-${preset.id}`);
      // A page the navigation withholds, opened by its address, still says which scope it needs.
      const withheld = [...reach.disabled, ...reach.hidden][0];
      if (withheld === "API keys") {
        await page.goto("/api-keys");
        await expect(page.getByRole("main").getByText("Missing scope")).toBeVisible();
        await expect(page.getByRole("main").getByText(/apikey:read/)).toBeVisible();
      }
      // The go-to keys skip what the person cannot open.
      if (reach.hidden.includes("Members")) {
        await page.goto(`/fleets?workspace=${tenant.workspace_id}`);
        await expect(page.getByRole("heading", { level: 1, name: "Fleets" })).toBeVisible();
        // Once the scopes are known (the navigation leaves Members out), and before: neither opens it.
        await page.keyboard.press("g");
        await page.keyboard.press("m");
        await expect(
          page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: /Fleets/ }),
        ).toBeVisible();
        await expect(
          page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: /Members/ }),
        ).toHaveCount(0);
        await page.keyboard.press("g");
        await page.keyboard.press("m");
        await page.waitForTimeout(500);
        await expect(page).toHaveURL(/\/fleets\?/);
      }
      await page.context().close();
    });
  }

  test("the API key dialog's grouped picker starts from Viewer, and looks right at 1440 and 390, light and dark", async ({
    page,
    browser,
    tenant,
    apiUrl,
  }, testInfo) => {
    await signIn(page, await loginLink(tenant.email));
    await page.goto("/api-keys");
    await page.getByRole("button", { name: "Create API key" }).click();
    const form = page.getByRole("dialog", { name: "Create an API key" });
    await expect(form.getByRole("radio", { name: "Viewer" })).toBeChecked();
    await expect(form.getByRole("group", { name: "Fleets" })).toBeVisible();
    await expect(form.getByRole("checkbox", { name: "fleet:read" })).toBeChecked();
    await expect(form.getByRole("checkbox", { name: "workspace:admin" })).not.toBeChecked();
    await form.getByRole("radio", { name: "Operator" }).check();
    await expect(form.getByRole("checkbox", { name: "fleet:write" })).toBeChecked();
    await form.getByRole("checkbox", { name: "billing:read" }).uncheck();
    await expect(form.getByRole("radio", { name: "Custom" })).toBeChecked();
    await form.getByRole("radio", { name: "Viewer" }).check();
    for (const [width, scheme] of [
      [1440, "light"],
      [1440, "dark"],
      [390, "light"],
      [390, "dark"],
    ] as const) {
      await page.setViewportSize({ width, height: 900 });
      await page.emulateMedia({ colorScheme: scheme });
      await shot(page, testInfo, `key-dialog-${width}-${scheme}`);
    }

    // A member's own key: the scopes they lack are disabled, saying why, and so are the presets holding them.
    const member = await signInAs(browser, await inviteWithPreset(apiUrl, tenant, "operator"));
    await member.goto("/api-keys");
    await member.getByRole("button", { name: "Create API key" }).click();
    const own = member.getByRole("dialog", { name: "Create an API key" });
    const admin = own.getByRole("checkbox", { name: "workspace:admin" });
    await expect(admin).toHaveAttribute("aria-disabled", "true");
    await expect(admin).toHaveAccessibleDescription(
      /You do not hold workspace:admin, so you cannot grant it/,
    );
    await admin.click({ force: true });
    await expect(admin).not.toBeChecked();
    const owner = own.getByRole("radio", { name: "Owner" });
    await expect(owner).toHaveAttribute("aria-disabled", "true");
    await owner.hover();
    await shot(member, testInfo, "key-dialog-operator-lacks");
    await member.context().close();
  });
});
