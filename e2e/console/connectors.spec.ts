import { seriousViolations } from "../support/axe.ts";
import {
  collectProblems,
  expect,
  openFromNavigation,
  screenshot,
  signInByLink,
  test,
} from "../support/fixtures.ts";
import { addTenantEntry, definition, installFleet } from "../support/fleet-api.ts";

test.describe("Connectors", () => {
  test("the chat provider is connected through the vendor's consent page, a channel routed, and disconnected", async ({
    page,
    tenant,
    apiUrl,
  }, testInfo) => {
    // Two trips through the vendor and the console's build on a loaded two-core machine.
    test.slow();
    const problems = collectProblems(page);
    const entry = await addTenantEntry(
      apiUrl,
      tenant,
      definition({ name: "Helpdesk", description: "Answers." }),
    );
    await installFleet(apiUrl, tenant, entry, "Helpdesk");
    await openFromNavigation(page, tenant, "Connectors", "/connectors");

    const slack = page.getByRole("region", { name: "Slack" });
    await expect(slack.getByText("Not connected")).toBeVisible();
    await screenshot(page, testInfo, "connectors-not-connected");

    // Connect: the browser goes to the (fake) vendor's consent page, and comes back to the console.
    await slack.getByRole("button", { name: "Connect Slack" }).click();
    await expect(page.getByRole("heading", { name: /Allow Fleet Control Plane/ })).toBeVisible();
    await screenshot(page, testInfo, "vendor-consent");
    await page.getByRole("link", { name: "Allow" }).click();
    await expect(page).toHaveURL(
      new RegExp(`/connectors\\?workspace=${tenant.workspace_id}&connected=slack$`),
    );
    await expect(page.getByText("Connected Slack.")).toBeVisible();
    await expect(slack.getByText("Connected", { exact: true })).toBeVisible();
    await expect(slack.getByText(/Team Fake Team/)).toBeVisible();

    // Route a channel to the fleet.
    await slack.getByLabel("Channel id").fill("C0HELP");
    await expect(slack.getByLabel("Fleet").locator("option:checked")).toHaveText("Helpdesk");
    await slack.getByRole("button", { name: "Route channel" }).click();
    const routes = slack.getByRole("list", { name: "Channel routes" });
    await expect(routes.getByRole("listitem")).toHaveText(/C0HELP → Helpdesk/);
    await screenshot(page, testInfo, "connectors-connected");

    // Disconnect: the consequence is said first; the routes go with it.
    await slack.getByRole("button", { name: "Disconnect Slack" }).click();
    const confirm = page.getByRole("dialog", { name: /Disconnect Slack/ });
    await expect(confirm).toContainText("channel routes are removed");
    await confirm.getByRole("button", { name: "Disconnect Slack" }).click();
    await expect(slack.getByText("Not connected")).toBeVisible();
    await expect(slack.getByRole("button", { name: "Connect Slack" })).toBeVisible();
    expect(problems).toEqual([]);
  });

  test("declining on the vendor's page changes nothing and says so", async ({ page, tenant }) => {
    await openFromNavigation(page, tenant, "Connectors", "/connectors");
    const slack = page.getByRole("region", { name: "Slack" });
    await slack.getByRole("button", { name: "Connect Slack" }).click();
    await page.getByRole("link", { name: "Cancel" }).click();
    await expect(page).toHaveURL(/declined=slack$/);
    await expect(page.getByText("access to Slack was not granted")).toBeVisible();
    await expect(slack.getByText("Not connected")).toBeVisible();
  });

  test("the success notice names only a catalogue provider, by its display name, never text from the URL", async ({
    page,
    tenant,
  }) => {
    const problems = collectProblems(page);
    await signInByLink(page, tenant);
    const at = (query: string) => `/connectors?workspace=${tenant.workspace_id}&${query}`;
    const slack = page.getByRole("region", { name: "Slack" });
    const hostile = [
      "<img src=x onerror=alert(1)>",
      "Slack. Your session expired: sign in at https://evil.example",
    ];
    // Text of the sender's, and ids the catalogue does not hold (another spelling, another vendor).
    for (const text of [...hostile, "SLACK", "github"]) {
      for (const key of ["connected", "declined"]) {
        await page.goto(at(`${key}=${encodeURIComponent(text)}`));
        await expect(slack.getByText("Not connected")).toBeVisible();
        await expect(page.getByText(/^Connected |Nothing changed/)).toHaveCount(0);
        if (hostile.includes(text)) await expect(page.getByText(text)).toHaveCount(0);
      }
    }
    await page.goto(at("connected=slack"));
    await expect(page.getByText("Connected Slack. Route a channel to a fleet below.")).toBeVisible();
    await page.goto(at("declined=datadog"));
    await expect(page.getByText("Nothing changed: access to Datadog was not granted.")).toBeVisible();
    expect(problems).toEqual([]);
  });

  test("the API-key provider is connected with a key its vendor checks; a refused key says so and stores nothing", async ({
    page,
    tenant,
  }, testInfo) => {
    test.slow();
    const minted = await fetch(`${process.env.E2E_KEY_VENDOR_URL}/_fake/keys`, { method: "POST" });
    const { key } = (await minted.json()) as { key: string };
    await page.setViewportSize({ width: 390, height: 844 });
    await openFromNavigation(page, tenant, "Connectors", "/connectors");
    const datadog = page.getByRole("region", { name: "Datadog" });
    await expect(datadog.getByText("Not connected")).toBeVisible();
    const field = datadog.getByLabel("Datadog API key", { exact: true });

    // Empty, then a key the vendor refuses: the refusal in words, the field kept for another try.
    await datadog.getByRole("button", { name: "Connect Datadog" }).click();
    await expect(datadog.getByText("Paste the Datadog API key.")).toBeVisible();
    await field.fill("0123456789abcdef0123456789abcdef");
    await datadog.getByRole("button", { name: "Connect Datadog" }).click();
    await expect(datadog.getByText(/refused the API key/)).toBeVisible();
    await expect(datadog.getByText("Not connected")).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, testInfo, "connectors-api-key-refused-390");

    // The vendor's key: connected, and the key is nowhere on the page.
    await page.setViewportSize({ width: 1440, height: 900 });
    await field.fill(key);
    await datadog.getByRole("button", { name: "Connect Datadog" }).click();
    await expect(datadog.getByText("Connected", { exact: true })).toBeVisible();
    await expect(field).toHaveCount(0);
    expect(await page.content()).not.toContain(key);
    await screenshot(page, testInfo, "connectors-api-key-connected");

    await datadog.getByRole("button", { name: "Disconnect Datadog" }).click();
    const confirm = page.getByRole("dialog", { name: /Disconnect Datadog/ });
    await expect(confirm).toContainText("stored API key is deleted");
    await confirm.getByRole("button", { name: "Disconnect Datadog" }).click();
    await expect(datadog.getByText("Not connected")).toBeVisible();
  });
});
