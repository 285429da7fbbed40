import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { freePort } from "@fleet/testing/free-port";
import { expect, test } from "@playwright/test";
import { repoRoot, startServer, stopServer, waitForUrl } from "../support/servers.ts";
import { StartCommand } from "../support/start-command.ts";

const run = promisify(execFile);

/** The suite's own API and console ports, which the start must not take. */
function suitePorts(): number[] {
  return [process.env.E2E_API_URL, process.env.E2E_CONSOLE_URL].map((url) => Number(new URL(url!).port));
}

/** The JSON lines of one of its logs. */
function logLines(dir: string, name: string): { time: number; msg: string; [key: string]: unknown }[] {
  return readFileSync(join(dir, `${name}.log`), "utf8")
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line));
}

async function until<T>(what: string, seconds: number, attempt: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + seconds * 1000;
  for (;;) {
    const value = await attempt().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what} did not happen within ${seconds} s`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

test.describe("pnpm start and Ctrl-C", () => {
  // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a test's fixtures from its first argument; this one needs none
  test("prints what a program needs; Ctrl-C hands the runner's lease back before the API stops, and exits 0", async ({}, testInfo) => {
    // The API's first start on a fresh database, the runner and the console on two busy cores.
    test.setTimeout(420_000);
    const start = await StartCommand.launch(suitePorts(), {
      viaPnpm: true,
      // A gate nobody answers holds the runner's lease; 3 s of grace, then it is handed back.
      env: { FLEET_RUNNER_SHUTDOWN_GRACE_MS: "3000" },
    });
    const apiUrl = `http://localhost:${start.apiPort}`;
    let exit: number | string | null = null;
    let leaseId = "";
    try {
      await start.waitFor(/Stop with Ctrl-C\./, 300);
      const printed = start.printed;
      const apiKey = printed.match(/\(shown once\):\n {2}(agt_t\S+)$/m)?.[1];
      expect(apiKey, "the tenant's first API key").toBeDefined();
      const workspaceId = printed.match(/^ {2}Workspace ([0-9a-f-]{36}) {3}\(\S+\)$/m)?.[1];
      expect(workspaceId, "the workspace id").toBeDefined();

      // The one curl line it prints sends the demo fleet a message: run as printed, it answers 202.
      const curl = printed.match(/^ {2}(curl -X POST \S+\/messages .*)$/m)?.[1];
      expect(curl, "the curl line").toBeDefined();
      expect(curl).toContain(`${apiUrl}/v1/workspaces/${workspaceId}/fleets/`);
      expect(printed).toContain(
        "A program sends the demo fleet Echo a message so (the key above in FLEET_API_KEY):",
      );
      const sent = await run("sh", ["-c", `${curl} -s -w '\\n%{http_code}'`], {
        env: { ...process.env, FLEET_API_KEY: apiKey! },
      });
      const [body, status] = sent.stdout.trim().split("\n");
      expect(status).toBe("202");
      expect(JSON.parse(body!)).toMatchObject({ status: "accepted" });
      const messages = curl!.match(/(http\S+\/messages)/)![1]!;

      // A message whose run waits at a gate: the runner holds its lease while nobody answers.
      const gated = await fetch(messages, {
        method: "POST",
        headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json" },
        body: JSON.stringify({ message: "approve: ship the release" }),
      });
      expect(gated.status).toBe(202);
      const eventId = ((await gated.json()) as { event_id: string }).event_id;
      leaseId = await until("the runner leasing the gated message", 90, async () => {
        const acquired = logLines(start.logDir, "runner").find(
          (line) => line.msg === "lease acquired" && line.event_id === eventId,
        );
        const gates = await fetch(`${apiUrl}/v1/workspaces/${workspaceId}/approvals?status=pending`, {
          headers: { authorization: `Bearer ${apiKey}` },
        }).then((response) => response.json() as Promise<{ items: unknown[] }>);
        return acquired !== undefined && gates.items.length > 0 ? String(acquired.lease_id) : undefined;
      });

      // Ctrl-C, as a terminal sends it: SIGINT to every process of the foreground job.
      start.interrupt();
      exit = await start.exit(90);
    } catch (error) {
      await start.stop();
      throw error;
    } finally {
      await testInfo.attach("start output", { body: start.printed, contentType: "text/plain" });
    }
    const printed = start.printed;
    expect(exit, printed).toBe(0);
    expect(printed).not.toContain("ELIFECYCLE");
    // In order: the runner first, then the API and the console, then the whole.
    const stopping = printed.indexOf(
      "start: stopping (the runner first finishes or hands back its leases, up to 3 s",
    );
    const runnerStopped = printed.indexOf("start: the runner stopped; stopping the API and the console…");
    const stopped = printed.indexOf("start: stopped.");
    expect(stopping).toBeGreaterThan(-1);
    expect(runnerStopped).toBeGreaterThan(stopping);
    expect(stopped).toBeGreaterThan(runnerStopped);
    const runnerLog = logLines(start.logDir, "runner");
    const apiLog = logLines(start.logDir, "api");
    const runnerEnd = runnerLog.find((line) => line.msg === "runner stopped");
    const apiDrain = apiLog.find((line) => line.msg === "stopping: draining");
    expect(runnerEnd, "the runner's log says it stopped").toBeDefined();
    expect(apiDrain, "the API drained").toBeDefined();
    expect(runnerEnd!.time).toBeLessThanOrEqual(apiDrain!.time);
    // One signal each: neither stopped "at once".
    expect(runnerLog.map((line) => line.msg)).not.toContain(
      "second signal: exiting now; held leases expire and are reclaimed",
    );
    expect(apiLog.map((line) => line.msg)).not.toContain("stopping at once");

    // The API, started again on the same database, shows the lease handed back, not expired.
    const port = await freePort(0);
    const api = startServer(`start-stop-api-${port}`, process.execPath, ["apps/api/scripts/start.mjs"], {
      cwd: repoRoot,
      env: { ...process.env, PORT: String(port), DATABASE_URL: start.databaseUrl, LOG_LEVEL: "warn" },
    });
    try {
      await waitForUrl(api, `http://127.0.0.1:${port}/readyz`, 120);
      const { stdout } = await run(
        process.execPath,
        ["--import", "tsx", "apps/api/src/cli/fleetctl.ts", "operator", "--scopes", "runner:read", "--json"],
        { cwd: repoRoot, env: { ...process.env, DATABASE_URL: start.databaseUrl } },
      );
      const operator = { authorization: `Bearer ${JSON.parse(stdout).token}` };
      const runners = await fetch(`http://127.0.0.1:${port}/v1/fleets/runners?limit=100`, {
        headers: operator,
      });
      const runnerPage = await runners.text();
      expect(runners.status, runnerPage).toBe(200);
      const runner = (
        JSON.parse(runnerPage) as { items: { runner_id: string; host_id: string }[] }
      ).items.find((item) => item.host_id === "local-dev");
      expect(runner, runnerPage).toBeDefined();
      const answer = await fetch(
        `http://127.0.0.1:${port}/v1/fleets/runners/${runner!.runner_id}/events?event_type=lease_released`,
        { headers: operator },
      );
      const text = await answer.text();
      expect(answer.status, text).toBe(200);
      const history = JSON.parse(text) as { items: { detail: Record<string, unknown> }[] };
      const ended = history.items.filter((item) => item.detail.lease_id === leaseId);
      expect(ended.map((item) => item.detail.outcome)).toEqual(["released"]);
    } finally {
      await stopServer(api);
      const stoppedAll = await start.stop();
      expect(stoppedAll.survivors).toEqual([]);
    }
  });
});
