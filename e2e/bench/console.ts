/**
 * Issue 17 §5: how fast the console's pages are ready, from a production build (`next build` + `next
 * start`) on the embedded default database (PGlite), measured in Debian's Chromium through Playwright.
 * Run by `BENCH_SUITES=console pnpm bench` (apps/api/bench/run.ts starts it) or directly with
 * `pnpm --filter @fleet/e2e bench:console`. Prints figures beside the goal (under 1 s); never fails on a miss.
 *
 * Per page, in a fresh browser context each time (empty HTTP cache, the session cookie already set):
 * - FCP: `performance.getEntriesByName("first-contentful-paint")`, from navigation start.
 * - Content: when the page's main content is in the DOM (a MutationObserver installed before any script
 *   notes the first match of the page's selector), from navigation start.
 * - TTI (a proxy): as soon as the content is there, the "Keyboard shortcuts" button of the shell is clicked
 *   (the mouse at its place, every 25 ms) until its dialog opens, and the time it opens is noted
 *   the same way: the time at which the page shows its data *and* answers a click. Clicked again and again
 *   because a page whose data comes with its HTML shows the button before its scripts run, and a click
 *   then is lost (React replays only the clicks that land once it has started). With the mouse, not a
 *   role locator, at the place the warm-up load found it: Playwright's queries run in the page's main
 *   thread (~100 ms on the fleet page) and would compete with hydration. It errs slow by up to one interval
 *   and Playwright's round trips. The button answers once the shell is hydrated, which, with no Suspense
 *   boundary between them, is when the page is.
 * - Where the time goes: the HTML's first byte and last byte, and when the last script chunk asked for
 *   before TTI had arrived (Resource Timing), from navigation start; no goal of their own.
 * - Quiet: when the page's last long task (50 ms or more, PerformanceObserver "longtask") ends, watched
 *   until 2 s after the click is answered: the rest of the hydration and the first live updates included,
 *   as Lighthouse's TTI counts them (without its 5 s quiet window).
 *
 * Env: BENCH_CONSOLE_SAMPLES (default 7 measured loads per page, after one unmeasured warm-up load),
 * BENCH_CONSOLE_EVENTS (default 1000: events of the measured fleet), BENCH_CONSOLE_TRACE (a folder: the last
 * load of each page is recorded there as a Chrome trace, to see where its time went, and its DOM as HTML).
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { chromium, type Page } from "@playwright/test";
import globalSetup from "../support/global-setup.ts";

const GOAL_MS = 1000;
/** The shell's "Keyboard shortcuts" button, found by CSS: cheap to query while the page hydrates. */
const CONTROL = 'button[aria-keyshortcuts="?"]';
const CLICK_EVERY_MS = 25;

function wholeNumber(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a whole number ≥ 1`);
  return value;
}

const progress = (message: string) => console.error(`· ${message}`);

interface Target {
  label: string;
  path: string;
  /** Matches once the page shows its data, not its loading state. */
  content: string;
}

interface Sample {
  fcp: number | null;
  content: number | null;
  tti: number | null;
  quiet: number | null;
  /** Where the time before TTI goes: the HTML's first and last byte, the last script chunk's last byte. */
  firstByte: number | null;
  html: number | null;
  scripts: number | null;
}

/** How long after the click is answered the page is watched for more long tasks. */
const QUIET_WATCH_MS = 2_000;

/**
 * Installed before the page's own scripts: notes when the content and, later, the control's answer appear.
 * A string, not a function: tsx compiles functions with name helpers that do not exist in the page.
 */
function observer(selectors: { content: string; answer: string }): string {
  return `(() => {
    const marks = {};
    window.__marks = marks;
    const check = () => {
      if (marks.content === undefined && document.querySelector(${JSON.stringify(selectors.content)}))
        marks.content = performance.now();
      if (marks.answer === undefined && document.querySelector(${JSON.stringify(selectors.answer)}))
        marks.answer = performance.now();
    };
    // Only the attributes the selectors read: every other attribute React writes would run the check.
    new MutationObserver(check).observe(document, {
      subtree: true,
      childList: true,
      attributeFilter: ["open", "aria-busy"],
    });
    // Tasks of 50 ms or more (the browser's long tasks): when the last one ends, the page is quiet.
    marks.quiet = 0;
    new PerformanceObserver((list) => {
      for (const task of list.getEntries()) marks.quiet = Math.max(marks.quiet, task.startTime + task.duration);
    }).observe({ type: "longtask", buffered: true });
  })();`;
}

type Marks = { content?: number; answer?: number; quiet: number };
const marksOf = (page: Page) => page.evaluate(() => (window as unknown as { __marks: Marks }).__marks);

type Box = { x: number; y: number; width: number; height: number };

/**
 * One load of `target`. The control's place is found on the warm-up load (`box` null) and reused: the same
 * page at the same viewport puts it in the same place, and finding it runs Playwright's script in the page's
 * main thread (~70 ms of a fleet page's load in a profile), which would compete with what is measured.
 */
async function load(page: Page, target: Target, box: Box | null): Promise<Sample & { box: Box | null }> {
  await page.addInitScript(observer({ content: target.content, answer: "dialog[open]" }));
  await page.goto(target.path, { waitUntil: "commit" });
  try {
    await page.waitForFunction(
      () => (window as unknown as { __marks?: Marks }).__marks?.content !== undefined,
      undefined,
      { polling: "raf", timeout: 30_000 },
    );
    box ??= await page.locator(CONTROL).first().boundingBox({ timeout: 30_000 });
    if (box === null) throw new Error("the shell's Keyboard shortcuts button is not shown");
    const { x, y, width, height } = box;
    const deadline = performance.now() + 30_000;
    for (;;) {
      await page.mouse.click(x + width / 2, y + height / 2);
      if ((await marksOf(page)).answer !== undefined) break;
      if (performance.now() > deadline) throw new Error("no click was answered in 30 s");
      await page.waitForTimeout(CLICK_EVERY_MS);
    }
  } catch (error) {
    progress(`${target.label}: ${error instanceof Error ? error.message.split("\n")[0] : error}`);
  }
  // The page's own work after the click is answered: the rest of its hydration, its first live updates.
  if ((await marksOf(page)).answer !== undefined) await page.waitForTimeout(QUIET_WATCH_MS);
  const marks = await marksOf(page);
  const tti = marks.answer ?? null;
  const { fcp, firstByte, html, scripts } = await page.evaluate((answered) => {
    const navigation = performance.getEntriesByType("navigation")[0] as
      | PerformanceNavigationTiming
      | undefined;
    // The chunks asked for before the click was answered, not those loaded later on demand.
    const chunks = (performance.getEntriesByType("resource") as PerformanceResourceTiming[]).filter(
      (entry) => entry.name.endsWith(".js") && entry.startTime <= (answered ?? Number.POSITIVE_INFINITY),
    );
    return {
      fcp: performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? null,
      firstByte: navigation?.responseStart ?? null,
      html: navigation?.responseEnd ?? null,
      scripts: chunks.length === 0 ? null : Math.max(...chunks.map((entry) => entry.responseEnd)),
    };
  }, tti);
  const quiet = tti === null ? null : Math.max(tti, marks.quiet);
  return { fcp, content: marks.content ?? null, tti, quiet, firstByte, html, scripts, box };
}

async function call(apiUrl: string, token: string, method: string, path: string, body?: unknown) {
  const response = await fetch(`${apiUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${text}`);
  return text ? JSON.parse(text) : undefined;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** One line of figures; `goal` false for the breakdown's parts, which have none of their own. */
function figure(label: string, values: (number | null)[], goal = true): string {
  const measured = values.filter((value): value is number => value !== null);
  if (measured.length === 0) return `  ${label.padEnd(8)} not reached`;
  const med = median(measured);
  const verdict = goal ? `${med < GOAL_MS ? "under the 1 s goal" : "OVER the 1 s goal"}; ` : "";
  const all = measured.map((value) => Math.round(value)).join(" / ");
  const missed = values.length - measured.length;
  return `  ${label.padEnd(8)} median ${Math.round(med)} ms (${verdict}max ${Math.round(Math.max(...measured))} ms; runs ${all})${missed ? `; ${missed} not reached` : ""}`;
}

async function main(): Promise<void> {
  const samples = wholeNumber("BENCH_CONSOLE_SAMPLES", 7);
  const eventCount = wholeNumber("BENCH_CONSOLE_EVENTS", 1000);
  const traceDir = process.env.BENCH_CONSOLE_TRACE || undefined;
  if (traceDir !== undefined) mkdirSync(traceDir, { recursive: true });
  // Seeding sends a thousand messages with one key: the per-key quota would refuse some of them. It
  // limits the seeding only; the pages measured make a handful of requests.
  process.env.FLEET_RATE_LIMITS = "false";
  progress("building the console (turbo; a cache hit when unchanged) and starting the API on a fresh PGlite");
  const stop = await globalSetup();
  // The servers run in process groups of their own: stop them on Ctrl-C too.
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.once(signal, () => void stop().finally(() => process.exit(130)));
  }
  const browser = await chromium.launch({
    executablePath: "/usr/bin/chromium",
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
  try {
    const apiUrl = process.env.E2E_API_URL!;
    const consoleUrl = process.env.E2E_CONSOLE_URL!;
    // Imported here: fleetctl reads the run's database address, which the global setup just set.
    const { bootstrapTenant, loginLink } = await import("../support/fleetctl.ts");
    const tenant = await bootstrapTenant("bench-console");
    const workspace = `/v1/workspaces/${tenant.workspace_id}`;
    const text = [
      "---",
      'name: "Bench fleet"',
      "requires:",
      "  credentials: []",
      "  tools: []",
      '  runner_labels: ["bench-nobody"]',
      "---",
      "# Bench fleet\n\nAnswer briefly.\n",
    ].join("\n");
    const entry = await call(apiUrl, tenant.api_key, "POST", `${workspace}/fleet-libraries`, {
      definition: text,
    });
    const fleet = await call(apiUrl, tenant.api_key, "POST", `${workspace}/fleets`, {
      tenant_library_id: entry.id,
    });
    for (let n = 0; n < 9; n++) {
      await call(apiUrl, tenant.api_key, "POST", `${workspace}/fleets`, {
        tenant_library_id: entry.id,
        name: `Bench fleet ${n + 2}`,
      });
    }
    progress(`sending ${eventCount} messages to the fleet`);
    const started = performance.now();
    let sent = 0;
    const sender = async () => {
      while (sent < eventCount) {
        sent++;
        await call(apiUrl, tenant.api_key, "POST", `${workspace}/fleets/${fleet.fleet_id}/messages`, {
          message: `Message ${sent}: what changed since the last release?`,
        });
      }
    };
    await Promise.all([sender(), sender(), sender(), sender()]);
    progress(`${eventCount} events in ${((performance.now() - started) / 1000).toFixed(1)} s`);

    // One sign-in; every measured load reuses its cookie in a fresh context.
    const signIn = await browser.newContext({ baseURL: consoleUrl });
    const first = await signIn.newPage();
    await first.goto(await loginLink(tenant.email));
    await first.getByRole("button", { name: "Continue" }).click();
    await first.waitForURL(/\/overview/);
    const state = await signIn.storageState();
    await signIn.close();

    const query = `?workspace=${tenant.workspace_id}`;
    const overview: Target = {
      label: "overview",
      path: `/overview${query}`,
      content: ".overview-grid:not([aria-busy])",
    };
    const targets: Target[] = [
      overview,
      {
        label: `fleet page with ${eventCount} events`,
        path: `/fleets/${fleet.fleet_id}${query}`,
        content: ".events__log tbody tr",
      },
    ];

    console.log(
      `\nConsole pages (issue 17 §5): production build, API on embedded PGlite, Chromium at 1440×900, ` +
        `${samples} loads each after one warm-up, fresh context per load; ` +
        `load average ${loadavg()[0]!.toFixed(1)} (other processes share the cores: read the figures with it)`,
    );
    for (const target of targets) {
      const results: Sample[] = [];
      let box: Box | null = null;
      for (let n = 0; n <= samples; n++) {
        progress(`${target.label}: load ${n}/${samples}${n === 0 ? " (warm-up)" : ""}`);
        const context = await browser.newContext({
          baseURL: consoleUrl,
          storageState: state,
          viewport: { width: 1440, height: 900 },
        });
        const page = await context.newPage();
        const trace = traceDir !== undefined && n === samples;
        if (trace) await browser.startTracing(page, { screenshots: false });
        const { box: found, ...sample } = await load(page, target, box);
        if (trace) {
          const file = join(traceDir, `${target.label.replace(/\W+/g, "-")}.json`);
          writeFileSync(file, await browser.stopTracing());
          writeFileSync(file.replace(/json$/, "html"), await page.content());
          progress(
            `${target.label}: the last load's trace is in ${file} (open it in Chrome DevTools' Performance), its DOM beside it`,
          );
        }
        box = found;
        await context.close();
        if (n > 0) results.push(sample);
      }
      console.log(`${target.label}:`);
      for (const [label, key] of [
        ["FCP", "fcp"],
        ["content", "content"],
        ["TTI", "tti"],
        ["quiet", "quiet"],
      ] as const) {
        console.log(
          figure(
            label,
            results.map((r) => r[key]),
          ),
        );
      }
      console.log("  where the time before TTI goes (from navigation start):");
      for (const [label, key] of [
        ["1st byte", "firstByte"],
        ["HTML", "html"],
        ["scripts", "scripts"],
      ] as const) {
        console.log(
          figure(
            label,
            results.map((r) => r[key]),
            false,
          ),
        );
      }
    }
  } finally {
    await browser.close();
    await stop();
  }
}

await main();
