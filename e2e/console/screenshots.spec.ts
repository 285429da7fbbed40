import type { Browser, BrowserContext, Locator, Page } from "@playwright/test";
import { seriousViolations } from "../support/axe.ts";
import { expect, screenshot, signInByLink, test } from "../support/fixtures.ts";
import {
  addTenantEntry,
  call,
  definition,
  installFleet,
  messageFleet,
  setFleetStatus,
  TestRunner,
} from "../support/fleet-api.ts";
import { addMember, bootstrapTenant, operatorToken, type Tenant } from "../support/fleetctl.ts";

/**
 * Issue 17 §4: every console page at 1440×900 and 390×844, light and dark, with realistic data. Each page
 * is saved as a full-page screenshot (test-results/<test>/<screen>-<scheme>-<width>.png, attached to the
 * report) and checked for sideways overflow and serious axe violations; every page is still shot when
 * one fails (soft assertions), so the artifact always holds the whole set.
 * `pnpm --filter @fleet/e2e screenshots:readme` copies the README's three from it into docs/images/.
 */

/** What the suite seeds once per worker: one tenant with a bit of everything. */
interface Seed {
  tenant: Tenant;
  fleetId: string;
  fleetName: string;
  libraryId: string;
  runner: TestRunner;
  gateAction: string;
}

interface Screen {
  /** The file name's stem; the README's images are named after it. */
  name: string;
  path: (seed: Seed) => string;
  /** Visible once the page shows its data (not its loading state). */
  ready: (page: Page, seed: Seed) => Locator;
  /** A page another change adds: skipped while the console answers 404 for it. */
  optional?: true;
  /** Shown to someone not signed in. */
  signedOut?: true;
  /** Run just before the visit, to show a state that fades (a runner's liveness). */
  before?: (seed: Seed) => Promise<void>;
}

const inWorkspace = (path: string) => (seed: Seed) => `${path}?workspace=${seed.tenant.workspace_id}`;
const heading = (name: string | RegExp) => (page: Page) => page.getByRole("heading", { level: 1, name });

/** The one list of pages. */
const screens: Screen[] = [
  {
    name: "sign-in",
    path: () => "/sign-in",
    ready: (page) => page.getByRole("button").first(),
    signedOut: true,
  },
  { name: "overview", path: inWorkspace("/overview"), ready: heading(/./), optional: true },
  {
    name: "approvals",
    path: inWorkspace("/approvals"),
    ready: (page, seed) => page.getByRole("region", { name: `deploy · ${seed.gateAction}` }),
  },
  {
    name: "fleets",
    path: inWorkspace("/fleets"),
    ready: (page, seed) => page.getByRole("row", { name: new RegExp(seed.fleetName) }),
  },
  {
    name: "fleet-run",
    path: (seed) => inWorkspace(`/fleets/${seed.fleetId}`)(seed),
    ready: (page, seed) =>
      page
        .getByRole("log", { name: `Events of ${seed.fleetName}` })
        .getByRole("row")
        .nth(3),
  },
  {
    name: "fleet-schedules",
    path: (seed) => `${inWorkspace(`/fleets/${seed.fleetId}`)(seed)}&tab=schedules`,
    ready: (page) => page.getByRole("row", { name: /^At 06:00/ }),
  },
  {
    name: "fleet-memories",
    path: (seed) => `${inWorkspace(`/fleets/${seed.fleetId}`)(seed)}&tab=memories`,
    ready: (page) => page.getByRole("row", { name: /release-notes/ }),
  },
  {
    name: "library",
    path: inWorkspace("/library"),
    ready: (page, seed) => page.getByRole("row", { name: new RegExp(seed.fleetName) }),
  },
  {
    name: "library-entry",
    path: (seed) => inWorkspace(`/library/${seed.libraryId}`)(seed),
    ready: (page, seed) => heading(seed.fleetName)(page),
  },
  { name: "models", path: inWorkspace("/models"), ready: heading(/./), optional: true },
  {
    name: "runners",
    path: () => "/runners",
    ready: (page, seed) => page.getByRole("row", { name: new RegExp(seed.runner.hostId) }),
    before: (seed) => seed.runner.heartbeat(),
  },
  {
    name: "runner-detail",
    path: (seed) => `/runners/${seed.runner.runnerId}`,
    ready: (page, seed) => heading(seed.runner.hostId)(page),
    before: (seed) => seed.runner.heartbeat(),
  },
  {
    name: "events",
    path: inWorkspace("/events"),
    ready: (page) => page.getByRole("log", { name: "Events of the workspace" }),
  },
  { name: "connectors", path: inWorkspace("/connectors"), ready: heading("Connectors") },
  {
    name: "secrets",
    path: inWorkspace("/secrets"),
    ready: (page) => page.getByRole("row", { name: /GITHUB_TOKEN/ }),
  },
  {
    name: "api-keys",
    path: () => "/api-keys",
    ready: (page) => page.getByRole("row", { name: /deploy-bot/ }),
  },
  {
    name: "webhooks",
    path: inWorkspace("/webhooks"),
    ready: (page) => page.getByRole("row", { name: /fleet-hooks/ }),
  },
  { name: "members", path: () => "/members", ready: (page) => page.getByRole("row", { name: /reviewer-/ }) },
  { name: "billing", path: inWorkspace("/billing"), ready: heading("Billing") },
  {
    name: "audit",
    path: inWorkspace("/audit"),
    ready: (page) => page.getByRole("row", { name: /secret\.create/ }),
  },
  { name: "device", path: () => "/device", ready: heading(/./) },
  { name: "not-found", path: () => "/no-such-page", ready: heading("Page not found") },
];

const viewports = [
  { width: 1440, height: 900 },
  { width: 390, height: 844 },
] as const;
const schemes = ["light", "dark"] as const;

/** A tenant with a fleet that has answered, failed and waits on an approval, a runner, keys and more. */
async function seed(apiUrl: string): Promise<Seed> {
  const tenant = await bootstrapTenant("Screenshots");
  const runner = new TestRunner(apiUrl);
  const fleetName = "Release helper";
  const entry = await addTenantEntry(
    apiUrl,
    tenant,
    definition({
      name: fleetName,
      description: "Answers questions about releases and ships them once approved.",
      runnerLabels: [runner.label],
      tools: ["deploy"],
      triggers: [{ cron: "0 6 * * 1-5", timezone: "Europe/Paris", message: "Summarise the night's builds." }],
    }),
  );
  const fleet = await installFleet(apiUrl, tenant, entry);
  const other = await installFleet(apiUrl, tenant, entry, "Release helper (staging)");
  await setFleetStatus(apiUrl, tenant, other.fleet_id, "paused");

  await messageFleet(apiUrl, tenant, fleet.fleet_id, "What changed in web since v1.4?");
  let lease = await runner.lease();
  await runner.remember(lease, "release-notes", "Keep them to five bullet points.", "style");
  await runner.report(lease, {
    outcome: "processed",
    response_text: "Twelve commits: the new billing page, two fixes to sign-in and a faster event list.",
    tokens: 820,
    wall_ms: 2_400,
    cost_nanos: 1_800_000,
  });
  await messageFleet(apiUrl, tenant, fleet.fleet_id, "Run the smoke tests on staging.");
  lease = await runner.lease();
  await runner.report(lease, {
    outcome: "fleet_error",
    failure_label: "tool_denied",
    failure_detail: "The browser tool was not granted to this fleet.",
  });
  await messageFleet(apiUrl, tenant, fleet.fleet_id, "Deploy web v1.5 to production.");
  lease = await runner.lease();
  const gateAction = "release web v1.5";
  await runner.openGate(lease, { action_name: gateAction, timeout_ms: 3_600_000 });

  await call(apiUrl, tenant.api_key, "POST", "/v1/api-keys", {
    key_name: "deploy-bot",
    description: "CI deploys",
  });
  await call(apiUrl, tenant.api_key, "POST", `/v1/workspaces/${tenant.workspace_id}/secrets`, {
    name: "GITHUB_TOKEN",
    data: { token: "ghp_screenshots" },
  });
  await call(apiUrl, tenant.api_key, "POST", `/v1/workspaces/${tenant.workspace_id}/webhook-endpoints`, {
    url: "https://1.1.1.1/fleet-hooks",
    event_types: ["event.failed"],
    description: "Incident bot",
  });
  await addMember(
    tenant.tenant_id,
    `reviewer-${tenant.user_id.slice(-6)}@example.test`,
    "approval:read approval:resolve fleet:read",
  );
  return { tenant, fleetId: fleet.fleet_id, fleetName, libraryId: entry.id, runner, gateAction };
}

/** Signs in once and keeps the session and an operator token (for the runners pages) as a storage state. */
async function signIn(browser: Browser, seeded: Seed) {
  const context = await browser.newContext({ baseURL: process.env.E2E_CONSOLE_URL });
  const page = await context.newPage();
  await signInByLink(page, seeded.tenant);
  await page.goto("/runners");
  const access = page.getByRole("region", { name: "Operator access" });
  await access.getByLabel("Operator token").fill(await operatorToken("runner:admin"));
  await access.getByRole("button", { name: "Use operator token" }).click();
  await expect(page.getByRole("row", { name: new RegExp(seeded.runner.hostId) })).toBeVisible();
  const state = await context.storageState();
  await context.close();
  return state;
}

test.describe("Screenshots", () => {
  // About twenty pages, each shot and checked by axe (seconds each on two shared cores).
  test.describe.configure({ timeout: 240_000 });
  let seeded: Seed;
  let state: Awaited<ReturnType<typeof signIn>>;

  test.beforeAll(async ({ browser }) => {
    test.setTimeout(120_000);
    seeded = await seed(process.env.E2E_API_URL!);
    state = await signIn(browser, seeded);
  });

  for (const viewport of viewports) {
    for (const colorScheme of schemes) {
      test(`every page at ${viewport.width}×${viewport.height}, ${colorScheme}`, async ({
        browser,
      }, testInfo) => {
        const options = { baseURL: process.env.E2E_CONSOLE_URL, viewport, colorScheme };
        const signedIn = await browser.newContext({ ...options, storageState: state });
        let signedOut: BrowserContext | undefined;
        try {
          const page = await signedIn.newPage();
          let anonymous: Page | undefined;
          for (const screen of screens) {
            let on = page;
            if (screen.signedOut) {
              signedOut ??= await browser.newContext(options);
              anonymous ??= await signedOut.newPage();
              on = anonymous;
            }
            const shot = `${screen.name}-${colorScheme}-${viewport.width}`;
            await test.step(shot, async () => {
              await screen.before?.(seeded);
              const response = await on.goto(screen.path(seeded));
              if (screen.optional && response?.status() === 404) {
                testInfo.annotations.push({ type: "skipped", description: `${screen.name}: 404` });
                return;
              }
              await expect(screen.ready(on, seeded).first()).toBeVisible();
              await screenshot(on, testInfo, shot);
              const width = await on.evaluate(() => ({
                page: document.documentElement.scrollWidth,
                screen: window.innerWidth,
              }));
              expect
                .soft(width.page, `${shot}: the page is wider than the screen`)
                .toBeLessThanOrEqual(width.screen);
              // A column whose text wraps anywhere, squeezed to a character a line, makes rows screens tall.
              const tallest = await on.evaluate(() =>
                Math.max(0, ...Array.from(document.querySelectorAll("tbody tr"), (row) => row.clientHeight)),
              );
              expect
                .soft(tallest, `${shot}: a table row is half a screen tall`)
                .toBeLessThanOrEqual(viewport.height / 2);
              expect.soft(await seriousViolations(on), `${shot}: axe`).toEqual([]);
            });
          }
        } finally {
          await signedIn.close();
          await signedOut?.close();
        }
      });
    }
  }
});
