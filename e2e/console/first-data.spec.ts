import { randomUUID } from "node:crypto";
import { collectProblems, expect, signInByLink, test } from "../support/fixtures.ts";
import { addTenantEntry, definition, installFleet, messageFleet, TestRunner } from "../support/fleet-api.ts";

// A reader far from the console's server, in another language: what the server writes must be what the
// browser would, or hydration throws the page away.
test.use({ timezoneId: "Pacific/Kiritimati", locale: "de-DE" });

test.describe("First data with the page", () => {
  test("the fleet page and the overview arrive with their data in the HTML and hydrate without a mismatch", async ({
    page,
    tenant,
    apiUrl,
  }) => {
    const problems = collectProblems(page);
    const name = `Prefetched ${randomUUID().slice(0, 6)}`;
    // A label no runner carries: the events stay received, in the list as sent.
    const entry = await addTenantEntry(
      apiUrl,
      tenant,
      definition({ name, runnerLabels: [`nobody-${randomUUID().slice(0, 8)}`] }),
    );
    const fleet = await installFleet(apiUrl, tenant, entry);
    await messageFleet(apiUrl, tenant, fleet.fleet_id, "the first question");
    await messageFleet(apiUrl, tenant, fleet.fleet_id, "the second question");
    await signInByLink(page, tenant);
    const query = `?workspace=${tenant.workspace_id}`;

    // The console's server asked the API while it rendered: the HTML holds the fleet and its events.
    const fleetPath = `/fleets/${fleet.fleet_id}${query}`;
    const html = await (await page.request.get(fleetPath)).text();
    expect(html).toContain(`>${name}</h1>`);
    // The events log's header row and its two events, and the conversation's turns with their messages.
    expect(html.match(/<tr[ >]/g)?.length ?? 0).toBeGreaterThanOrEqual(3);
    expect(html).toContain(">the first question<");
    expect(html).toContain(">the second question<");
    // Their actor, the tenant's API key, by its name: the names came with the data.
    expect(html).toMatch(/data-kind="api_key" data-id="[^"]+" data-resolved="true"/);
    const overview = await (await page.request.get(`/overview${query}`)).text();
    expect(overview).toContain("Waiting for a runner");
    expect(overview).toContain(name);

    // In the browser the same page shows at once and answers; the local time is the reader's own.
    await page.goto(fleetPath);
    await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
    const time = page.locator(".fleet-header__meta .ui-time").first();
    await time.focus();
    await expect(time.getByRole("tooltip")).toContainText(/\(local\)/);
    await expect(time.getByRole("tooltip")).toContainText(/GMT\+14|LINT/);
    await page.goto(`/overview${query}`);
    await expect(page.getByRole("region", { name: /^Waiting for a runner/ })).toContainText(name);
    expect(problems).toEqual([]);
  });

  test("the approvals inbox and the Events page arrive with their data and names and hydrate without a mismatch", async ({
    page,
    tenant,
    apiUrl,
  }) => {
    const problems = collectProblems(page);
    const runner = new TestRunner(apiUrl);
    const name = `Gated ${randomUUID().slice(0, 6)}`;
    const entry = await addTenantEntry(apiUrl, tenant, definition({ name, runnerLabels: [runner.label] }));
    const fleet = await installFleet(apiUrl, tenant, entry);
    await messageFleet(apiUrl, tenant, fleet.fleet_id, "ship the release");
    const lease = await runner.lease();
    const action = `release-${randomUUID().slice(0, 6)}`;
    await runner.openGate(lease, {
      action_name: action,
      gate_kind: "deploy",
      proposed_action: "Ship web v2",
    });
    await signInByLink(page, tenant);
    const query = `?workspace=${tenant.workspace_id}`;

    // The inbox's HTML holds the gate in the list and open in the pane, with the fleet's name.
    const inbox = await (await page.request.get(`/approvals${query}`)).text();
    expect(inbox).toContain(action);
    expect(inbox).toContain("Ship web v2");
    expect(inbox).toContain(name);
    // The feed's HTML holds the event, its fleet by name and its actor (the tenant's API key) named.
    const feed = await (await page.request.get(`/events${query}`)).text();
    expect(feed).toContain(name);
    expect(feed).toMatch(/data-kind="api_key" data-id="[^"]+" data-resolved="true"/);

    // In the browser both show at once and hydrate without a mismatch, in another zone and language.
    await page.goto(`/approvals${query}`);
    await expect(page.getByRole("button", { name: "Approve", exact: true })).toBeVisible();
    await page.goto(`/events${query}`);
    await expect(page.getByRole("main")).toContainText(name);
    expect(problems).toEqual([]);
  });

  test("a page whose data the API refuses still arrives, and says why in the browser", async ({
    page,
    tenant,
  }) => {
    await signInByLink(page, tenant);
    // A fleet id that is no fleet: the server hands nothing over, and the page's own query says not found.
    await page.goto(`/fleets/01a20000-0000-7000-8000-000000000000?workspace=${tenant.workspace_id}`);
    await expect(page.locator(".ui-problem")).toContainText(/not found/i);
    await expect(page.getByRole("link", { name: "Back to Fleets" })).toBeVisible();
  });
});
