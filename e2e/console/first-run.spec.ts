import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, landingSettled, screenshot, test } from "../support/fixtures.ts";
import { StartCommand, type Stopped } from "../support/start-command.ts";

/** The suite's own API and console ports, which the start must not take. */
function suitePorts(): number[] {
  return [process.env.E2E_API_URL, process.env.E2E_CONSOLE_URL].map((url) => Number(new URL(url!).port));
}

test.describe("First run", () => {
  test("pnpm start prints a calm summary with a sign-in link; the owner sees the runner, installs Echo and the local runner answers", async ({
    page,
  }, testInfo) => {
    // The API's first start on a fresh database, two fleetctl runs, the runner and the console: minutes
    // on two busy cores, not seconds.
    test.setTimeout(420_000);
    const start = await StartCommand.launch(suitePorts());
    let stopped: Stopped | undefined;
    try {
      // What README.md's set-up section promises, in the order start.mjs prints it.
      await start.waitFor(/Stop with Ctrl-C\./, 300);
      const printed = start.printed;
      const apiUrl = `http://localhost:${start.apiPort}`;
      const consoleUrl = `http://localhost:${start.consolePort}`;
      expect(printed).toContain("Fleet Control Plane is running.");
      expect(printed).toMatch(new RegExp(`^ {2}API +${apiUrl} +\\(reference ${apiUrl}/docs\\)$`, "m"));
      expect(printed).toMatch(new RegExp(`^ {2}Console +${consoleUrl}$`, "m"));
      expect(printed).toMatch(
        /^ {2}Runner +local-dev is working \(dev_none, auto executor: echo for Echo, agent for fleets with tools\)$/m,
      );
      // The servers' logs go to files it names; the terminal shows none of their lines.
      expect(printed).toMatch(
        /^ {2}Logs +\S*first-run-\d+\/ \(api\.log, build\.log, console\.log, demo\.log, runner\.log\) /m,
      );
      // The demo agent fleet, and that its model is scripted until a provider is set.
      expect(printed).toContain("Watch an agent: in the console open the fleet Status Board Agent");
      expect(printed).toContain("its model is the SCRIPTED DEMO MODEL, not a real model");
      expect(printed).not.toMatch(/"level":\d+/);
      expect(readFileSync(join(start.logDir, "api.log"), "utf8")).toMatch(/"msg":"request"/);
      expect(printed).toContain('Created tenant "Default" with owner owner@localhost.');
      const apiKey = printed.match(/\(shown once\):\n {2}(agt_t\S+)$/m)?.[1];
      expect(apiKey, "the tenant's first API key").toBeDefined();
      const signIn = printed.match(/one-time link, valid 10 minutes\):\n {2}(\S+)$/m)?.[1];
      expect(signIn, "the one-time sign-in link").toMatch(new RegExp(`^${consoleUrl}/`));
      expect(printed).toContain(
        "A new sign-in link: pnpm fleetctl login-link --email owner@localhost. Stop with Ctrl-C.",
      );
      // It asked turbo to build the console (the shim answered: the global setup built it already), and
      // with the build done the summary waited for the console: the line above says nothing of a build.
      expect(start.buildsRequested()).toContain("--filter=@fleet/console");

      // The printed link signs the owner in.
      await page.goto(signIn!);
      await page.getByRole("button", { name: "Continue" }).click();
      await expect(page).toHaveURL(new RegExp(`^${consoleUrl}/overview(\\?workspace=[0-9a-f-]{36})?$`), {
        timeout: 30_000,
      });
      await expect(page.getByRole("heading", { level: 1, name: "Overview" })).toBeVisible();
      await landingSettled(page);

      // In dev mode the owner's sign-in opens the operator pages too: no token to mint and paste.
      await page
        .getByRole("navigation", { name: "Main" })
        .getByRole("link", { name: /Runners/ })
        .click();
      await expect(page.getByRole("heading", { level: 1, name: "Runners" })).toBeVisible();
      await expect(page.getByRole("region", { name: "Operator access" })).toHaveCount(0);
      await expect(page.getByRole("row", { name: /local-dev/ })).toBeVisible();
      await screenshot(page, testInfo, "first-run-runners");

      // No provider anywhere: the Models page says the demo agent's model is scripted, not a real one.
      await page
        .getByRole("navigation", { name: "Main" })
        .getByRole("link", { name: /Models/ })
        .click();
      const provider = page.getByRole("region", { name: "Your provider" });
      await expect(provider).toContainText("Scripted demo model — not a real model.");
      await expect(provider.getByRole("button", { name: "Set provider" })).toBeVisible();

      // The demo fleet waits in the Library, offered by the platform, and is installed already in the
      // default workspace (with the secret it declares), so the printed curl line works at once.
      await page
        .getByRole("navigation", { name: "Main" })
        .getByRole("link", { name: /Library/ })
        .click();
      await expect(page.getByRole("heading", { level: 1, name: "Library" })).toBeVisible();
      await expect(page).toHaveURL(/\/library\?workspace=[0-9a-f-]{36}$/);
      const workspaceId = new URL(page.url()).searchParams.get("workspace")!;
      expect(printed).toMatch(new RegExp(`^ {2}Workspace ${workspaceId} {3}\\(default\\)$`, "m"));
      await expect(page.getByRole("row", { name: /Echo/ })).toContainText("Platform");
      await expect(page.getByRole("row", { name: /Echo/ })).toContainText("ECHO_GREETING");
      await expect(page.getByRole("row", { name: /Status Board Agent/ })).toContainText("Platform");
      await screenshot(page, testInfo, "first-run-library");

      // The printed API key is the tenant's: it reads the secret the first run created (by name only).
      const secrets = await fetch(`${apiUrl}/v1/workspaces/${workspaceId}/secrets`, {
        headers: { authorization: `Bearer ${apiKey}` },
      });
      expect(secrets.status).toBe(200);
      expect((await secrets.json()).secrets.map((s: { name: string }) => s.name)).toContain("ECHO_GREETING");

      await page
        .getByRole("navigation", { name: "Main" })
        .getByRole("link", { name: /Fleets/ })
        .click();
      // The Library's own Echo link is on screen until the Fleets page replaces it.
      await expect(page.getByRole("heading", { level: 1, name: "Fleets" })).toBeVisible();
      await page.getByRole("main").getByRole("link", { name: "Echo", exact: true }).click();
      await expect(page).toHaveURL(/\/fleets\/[0-9a-f-]{36}\?workspace=[0-9a-f-]{36}$/);
      await expect(page.getByRole("heading", { level: 1, name: "Echo" })).toBeVisible();
      expect(printed).toContain(
        `/v1/workspaces/${workspaceId}/fleets/${page.url().match(/fleets\/([0-9a-f-]{36})/)![1]}/messages`,
      );

      // Send it a message; the local runner leases it and the echo executor answers.
      const message = `Hello from the first run ${randomUUID().slice(0, 8)}`;
      await page.getByLabel("Message to Echo").fill(message);
      await page.getByRole("button", { name: "Send message" }).click();
      await expect(page.getByRole("status").filter({ hasText: "Sent as event" })).toBeVisible();
      const log = page.getByRole("log", { name: "Events of Echo" });
      const eventRow = log.getByRole("row", { name: /Message/ });
      await expect(eventRow).toContainText("Processed", { timeout: 60_000 });
      await screenshot(page, testInfo, "first-run-events");
      await eventRow.getByRole("link", { name: /^Inspect message event/ }).click();
      const inspect = page.getByRole("dialog", { name: "Message event" });
      await expect(inspect.getByRole("region", { name: "Response" })).toContainText(`Echo: ${message}`);
      await screenshot(page, testInfo, "first-run-answer");

      // The demo agent fleet runs end to end on the scripted demo model: board read, gate, memory, answer.
      await agentDemoRuns(apiUrl, workspaceId, apiKey!);
    } finally {
      stopped = await start.stop();
      await testInfo.attach("start output", { body: start.printed, contentType: "text/plain" });
    }
    // SIGTERM to start.mjs ends its API, console and runner: nothing of its process group outlives it.
    expect(stopped.survivors).toEqual([]);
    await expect(fetch(`http://127.0.0.1:${start.apiPort}/healthz`)).rejects.toThrow();
  });
});

/** Messages the demo agent fleet, approves its memory's gate, and reads its scripted answer (REST). */
async function agentDemoRuns(apiUrl: string, workspaceId: string, apiKey: string): Promise<void> {
  const call = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${apiUrl}/v1/workspaces/${workspaceId}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${apiKey}`,
        ...(body === undefined ? {} : { "content-type": "application/json" }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return response.json();
  };
  const fleets = await call("GET", "/fleets");
  const agent = fleets.items.find((fleet: { name: string }) => fleet.name === "Status Board Agent");
  expect(agent, "the demo agent fleet is installed").toBeDefined();
  const sent = await call("POST", `/fleets/${agent.id}/messages`, { message: "How is the shop doing?" });
  let gate: { gate_id: string; tool_name: string } | undefined;
  await expect
    .poll(
      async () => {
        const page = await call("GET", `/approvals?fleet_id=${agent.id}&status=pending`);
        gate = page.items[0];
        return gate?.tool_name;
      },
      { timeout: 60_000 },
    )
    .toBe("memory_write");
  await call("POST", `/approvals/${gate!.gate_id}/approve`, {});
  await expect
    .poll(async () => (await call("GET", `/fleets/${agent.id}/events/${sent.event_id}`)).status, {
      timeout: 60_000,
    })
    .toBe("processed");
  const event = await call("GET", `/fleets/${agent.id}/events/${sent.event_id}`);
  expect(event.response_text).toContain("I remembered it as the memory status-board.");
  expect(event.response_text).toContain("Scripted demo model — not a real model.");
}
