// The console of `pnpm start`: built in the background while the API starts, with a page on its port that
// says so meanwhile. A first start on a fresh clone spends minutes in `next build`; the API, the key, the
// workspace and the sign-in link need none of it, so they are printed as soon as the API is ready, and the
// link already works: its page waits on the console's port and opens the console once it is ready
// (docs/decisions/development-and-testing.md, "The first start").
import { createServer } from "node:http";

/** How often the building page asks whether the console is ready. */
const POLL_MS = 2_000;

const page = (startedAt) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Fleet Control Plane: the console is building</title>
<style>
  :root { color-scheme: light dark; font-family: system-ui, sans-serif; }
  body { margin: 0; min-height: 100vh; display: grid; place-items: center; background: Canvas; color: CanvasText; }
  main { max-width: 32rem; padding: 2rem; }
  h1 { font-size: 1.25rem; margin: 0 0 .75rem; }
  p { line-height: 1.5; margin: .5rem 0; opacity: .85; }
</style></head>
<body><main role="status" aria-live="polite">
  <h1>The console is building</h1>
  <p>The first start builds the console once (a few minutes; later starts reuse the build). The API is already running.</p>
  <p>This page opens the console by itself when it is ready, at this same address: a sign-in link keeps working. <span id="elapsed"></span></p>
</main>
<script>
  const startedAt = ${startedAt};
  const elapsed = document.getElementById("elapsed");
  const tick = () => {
    elapsed.textContent = "Building for " + Math.round((Date.now() - startedAt) / 1000) + " s.";
  };
  tick();
  setInterval(async () => {
    tick();
    try {
      const response = await fetch("/", { cache: "no-store" });
      if (response.ok && !response.headers.has("x-fleet-console-building")) location.reload();
    } catch {
      // between this page and the console: nothing listens for a moment
    }
  }, ${POLL_MS});
</script></body></html>`;

/**
 * Answers every request on the console's port with the building page (503, so no client takes it for
 * the console) until `close()`. Resolves once listening; rejects naming the port when it is taken.
 */
export function servePlaceholder(port) {
  const startedAt = Date.now();
  const server = createServer((request, response) => {
    response.writeHead(503, {
      "content-type": "text/html; charset=utf-8",
      "cache-control": "no-store",
      "retry-after": "2",
      "x-fleet-console-building": "1",
    });
    response.end(request.method === "HEAD" ? undefined : page(startedAt));
  });
  return new Promise((resolve, reject) => {
    server.once("error", (error) => {
      reject(
        error.code === "EADDRINUSE"
          ? new Error(
              `port ${port} is already in use; stop what listens there, or set CONSOLE_PORT to a free port`,
            )
          : error,
      );
    });
    server.listen(Number(port), () =>
      resolve({
        close: () =>
          new Promise((done) => {
            server.close(() => done());
            server.closeAllConnections();
          }),
      }),
    );
  });
}

/** `1 min 5 s`, `42 s`. */
export function duration(ms) {
  const seconds = Math.round(ms / 1000);
  return seconds < 60 ? `${seconds} s` : `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
}

/**
 * `turbo run build --filter=@fleet/console` in the background, its output in `stdio`. Until the summary
 * is printed (`quiet()` false), says every `everyMs` that it is still building, so a first start is never
 * minutes of silence. Resolves with the exit code.
 */
export function buildConsole(processes, { env, stdio, say, quiet, everyMs = 20_000 }) {
  const startedAt = Date.now();
  const child = processes.run(
    "build",
    "pnpm",
    ["exec", "turbo", "run", "build", "--filter=@fleet/console", "--output-logs=errors-only"],
    { env, stdio },
  );
  const ticker = setInterval(() => {
    if (!quiet()) say(`start: still building the console (${duration(Date.now() - startedAt)})…`);
  }, everyMs);
  return new Promise((resolve) => {
    child.once("exit", (code, signal) => {
      clearInterval(ticker);
      resolve({ code: code ?? (signal ? 1 : 0), ms: Date.now() - startedAt });
    });
    child.once("error", () => {
      clearInterval(ticker);
      resolve({ code: 1, ms: Date.now() - startedAt });
    });
  });
}
