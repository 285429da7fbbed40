import { defineConfig } from "@playwright/test";

// Debian's Chromium: Playwright never downloads a browser here (PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1).
const chromiumArgs = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

export default defineConfig({
  testDir: ".",
  testMatch: ["console/**/*.spec.ts", "api/**/*.spec.ts"],
  // Builds the console when needed, starts the real API (fresh PGlite) and console; stops both after.
  globalSetup: "./support/global-setup.ts",
  fullyParallel: true,
  // Two cores: the API, the console and the browsers share them.
  workers: 2,
  forbidOnly: Boolean(process.env.CI),
  retries: 0,
  // Generous for a loaded two-core CI machine: a passing test takes no longer for it, a stuck one fails.
  timeout: 90_000,
  expect: { timeout: 15_000 },
  outputDir: "test-results",
  reporter: [["list"], ["html", { open: "never", outputFolder: "playwright-report" }]],
  use: {
    browserName: "chromium",
    launchOptions: { executablePath: "/usr/bin/chromium", args: chromiumArgs },
    viewport: { width: 1360, height: 860 },
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
  },
});
