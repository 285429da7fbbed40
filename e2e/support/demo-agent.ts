import { randomUUID } from "node:crypto";
import { appendFileSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { createAgentExecutor } from "@fleet/runner";
import { startEmbeddedRunner } from "@fleet/runner/embed";
import { addPlatformEntry, call, enrolRunner, type InstalledFleet, installFleet } from "./fleet-api.ts";
import { operatorToken, type Tenant } from "./fleetctl.ts";
import { priceVendorModel, setVendorProvider } from "./model-vendor.ts";
import { e2eDir, repoRoot } from "./servers.ts";

/** The demo agent fleet as dev-mode first run puts it in the platform library. */
const SEED = join(repoRoot, "apps/api/src/services/fleet-libraries/seed/status-board-agent.md");
/** Where the seed's instructions send the model: the demo service `pnpm start` runs. */
const SEED_BOARD = "http://127.0.0.1:8091";

export const DEMO_AGENT = "Status Board Agent";

export interface DemoAgent {
  fleet: InstalledFleet;
  /** Stops the fleet's runner (gracefully: a held lease ends or is given up). */
  stop(): Promise<void>;
}

/**
 * What `pnpm start` gives a newcomer, on the suite's API and for one tenant: the demo agent fleet, onboarded
 * to the platform library from its seed and installed in the tenant's workspace, and the reference runner's
 * agent executor working it. The differences, each because the suite is shared and not in dev mode:
 * - the board is the suite's demo service (`E2E_DEMO_URL`), and the fleet requires a runner label of its
 *   own, so no other spec's runner takes its messages;
 * - the model is the fake vendor as the tenant's OpenAI provider, playing the scripted demo model with a
 *   priced model (`model-vendor.ts`), not the unpriced dev-mode fallback: the event's cost is real;
 * - the runner runs in this process with a `landlock_full` capability report (`@fleet/runner/embed`): the
 *   service refuses `dev_none` outside dev mode;
 * - the workspace's policy lets a person approve a gate their own message caused, as one person running a
 *   workspace would set it (the default refuses it).
 */
export async function installDemoAgent(apiUrl: string, tenant: Tenant): Promise<DemoAgent> {
  const board = process.env.E2E_DEMO_URL!;
  const label = `e2e-demo-${randomUUID().slice(0, 8)}`;
  const definition = readFileSync(SEED, "utf8")
    .replaceAll(SEED_BOARD, board)
    .replace("  network_hosts:\n", `  runner_labels:\n    - ${label}\n  network_hosts:\n`);
  // One operator token for the catalogue, the platform library and the runner (each mint is a fleetctl run).
  const operator = await operatorToken("model:write platform-library:write runner:write");
  await priceVendorModel(apiUrl, operator);
  await setVendorProvider(apiUrl, tenant);
  await call(apiUrl, tenant.api_key, "PUT", `/v1/workspaces/${tenant.workspace_id}/approval-policy`, {
    rules: [],
    escalation_webhook_url: null,
    allow_self_approval: true,
  });
  const entry = await addPlatformEntry(apiUrl, definition, operator);
  const fleet = await installFleet(apiUrl, tenant, entry);
  const enrolled = await enrolRunner(apiUrl, `${label}.e2e.test`, label, operator);
  const logPath = join(e2eDir, "logs", `runner-${label}.log`);
  mkdirSync(join(e2eDir, "logs"), { recursive: true });
  const runner = startEmbeddedRunner({
    apiUrl,
    token: enrolled.runner_token,
    executor: createAgentExecutor(),
    capabilities: {
      landlock: true,
      seccomp: true,
      cgroup_controllers: [],
      bubblewrap: false,
      egress_enforcement: false,
    },
    log: { level: "info", write: (line) => appendFileSync(logPath, line) },
  });
  return {
    fleet,
    stop: async () => {
      await runner.stop();
    },
  };
}
