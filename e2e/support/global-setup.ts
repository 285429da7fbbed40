import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startDemoService } from "@fleet/runner/dev/demo-service";
import { startFakeChatVendor, vendorEnv } from "@fleet/testing/fake-chat-vendor";
import { keyVendorEnv, startFakeKeyVendor } from "@fleet/testing/fake-key-vendor";
import { modelVendorEnv, startFakeModelVendor } from "@fleet/testing/fake-model-vendor";
import { freePort } from "@fleet/testing/free-port";
import { scriptedDemo } from "./model-vendor.ts";
import { repoRoot, startServer, stopServer, waitForUrl } from "./servers.ts";

const consoleDir = join(repoRoot, "apps", "console");

/**
 * Builds the console through turbo, which rebuilds only when its inputs changed (a cache hit restores
 * .next in a second), so a stale or missing build never reaches the tests.
 */
function buildConsole(): void {
  const result = spawnSync(
    "pnpm",
    ["exec", "turbo", "run", "build", "--filter=@fleet/console", "--output-logs=errors-only", "--ui=stream"],
    {
      cwd: repoRoot,
      stdio: "inherit",
      env: { ...process.env, TURBO_TELEMETRY_DISABLED: "1", NEXT_TELEMETRY_DISABLED: "1" },
    },
  );
  if (result.status !== 0) throw new Error(`building the console failed (exit ${result.status})`);
}

/**
 * Starts the real API on a fresh embedded database and the built console pointed at it, and tells the
 * tests where they are through the environment the workers inherit. Returns the teardown.
 */
export default async function globalSetup(): Promise<() => Promise<void>> {
  buildConsole();
  const dataDir = mkdtempSync(join(tmpdir(), "fleet-e2e-"));
  const apiPort = await freePort(18080);
  const consolePort = await freePort(18081);
  const apiUrl = `http://127.0.0.1:${apiPort}`;
  const consoleUrl = `http://127.0.0.1:${consolePort}`;
  const databaseUrl = `pglite://${join(dataDir, "db")}`;
  // The chat provider's fake vendor (its consent page sends the browser back to the API's callback).
  const vendor = await startFakeChatVendor();
  // The API-key provider's fake vendor (its key check).
  const keyVendor = await startFakeKeyVendor();
  // The demo agent fleet's status board (the demo service `pnpm start` runs; its board only is used).
  const demo = await startDemoService(0);
  // The model vendors' fake (OpenAI and Anthropic wires), where the named providers' calls go; it plays the
  // scripted demo model for the demo agent fleet's calls.
  const modelVendor = await startFakeModelVendor({ respond: scriptedDemo(demo.url) });

  const api = startServer("api", process.execPath, ["apps/api/scripts/start.mjs"], {
    cwd: repoRoot,
    env: {
      ...process.env,
      PORT: String(apiPort),
      HOST: "127.0.0.1",
      PUBLIC_URL: apiUrl,
      CONSOLE_URL: consoleUrl,
      DATABASE_URL: databaseUrl,
      LOG_LEVEL: "warn",
      ...vendorEnv(vendor),
      ...keyVendorEnv(keyVendor),
      ...modelVendorEnv(modelVendor),
    },
  });
  const consoleServer = startServer(
    "console",
    process.execPath,
    [
      join(consoleDir, "node_modules", "next", "dist", "bin", "next"),
      "start",
      "-p",
      String(consolePort),
      "-H",
      "127.0.0.1",
    ],
    { cwd: consoleDir, env: { ...process.env, API_URL: apiUrl, NEXT_TELEMETRY_DISABLED: "1" } },
  );
  const stopAll = async () => {
    await stopServer(consoleServer);
    await stopServer(api);
    await vendor.close();
    await keyVendor.close();
    await modelVendor.close();
    await demo.close();
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    // A fresh PGlite directory takes several seconds to initialise.
    await waitForUrl(api, `${apiUrl}/readyz`, 120);
    await waitForUrl(consoleServer, `${consoleUrl}/sign-in`, 60);
  } catch (error) {
    await stopAll();
    throw error;
  }

  process.env.E2E_API_URL = apiUrl;
  process.env.E2E_CONSOLE_URL = consoleUrl;
  process.env.E2E_DATABASE_URL = databaseUrl;
  process.env.E2E_RUN_DIR = dataDir;
  process.env.E2E_VENDOR_URL = vendor.url;
  process.env.E2E_VENDOR_SIGNING_SECRET = vendor.signingSecret;
  process.env.E2E_KEY_VENDOR_URL = keyVendor.url;
  process.env.E2E_MODEL_VENDOR_KEY = modelVendor.apiKey;
  process.env.E2E_DEMO_URL = demo.url;
  return stopAll;
}
