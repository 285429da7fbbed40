// `pnpm start:api`: runs the API from a bundle of ES modules (its TypeScript, the workspace packages and
// the npm packages it imports), built with esbuild when any of its inputs changed since the last build.
// One bundle starts in a third of the time the same code takes as hundreds of modules compiled on the fly
// (docs/decisions/operations.md, "Start-up"). It is split where `main.ts` imports the service after
// listening: `dist/api.mjs` holds what listening needs, `dist/chunks/` the rest, read once `/healthz`
// answers. PGlite stays outside the bundle: it loads its WebAssembly from beside its own module.
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { enableCompileCache } from "node:module";
import { basename, dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const apiDir = join(dirname(fileURLToPath(import.meta.url)), "..");
const outdir = join(apiDir, "dist");
const chunksDir = join(outdir, "chunks");
const outfile = join(outdir, "api.mjs");
const metafile = join(outdir, "api.meta.json");

/** Whether the bundle is newer than this script and every file esbuild read to build it. */
function bundleIsFresh() {
  try {
    const built = statSync(outfile).mtimeMs;
    const { inputs } = JSON.parse(readFileSync(metafile, "utf8"));
    // Absolute paths, so a check is a stat each (a thousand inputs); nothing to join or normalise.
    const sources = [fileURLToPath(import.meta.url), ...inputs];
    return sources.every((source) => statSync(source).mtimeMs <= built);
  } catch {
    return false; // never built, an input is gone, or a metafile of the older format
  }
}

/**
 * `node:http` and `node:https` as CommonJS (`require`) rather than ES imports. Node builds an ES module's
 * view of a built-in by reading every export, and `node:http`'s `WebSocket`, `CloseEvent` and
 * `MessageEvent` are getters that load undici: a fifth of the time to `/healthz` (270 of 1,210 ms in a
 * profile), for classes the API never uses.
 */
const httpThroughRequire = {
  name: "http-through-require",
  setup(build) {
    build.onResolve({ filter: /^(node:)?https?$/ }, (args) =>
      args.namespace === "builtin-require"
        ? { path: args.path, external: true }
        : { path: args.path, namespace: "builtin-require" },
    );
    build.onLoad({ filter: /.*/, namespace: "builtin-require" }, (args) => ({
      contents: `module.exports = require(${JSON.stringify(args.path)});`,
      loader: "js",
    }));
  },
};

/** The files a build read, as absolute paths (the plugin's modules are named `namespace:path`, no file). */
function files(meta) {
  return Object.keys(meta.inputs)
    .filter((input) => !input.startsWith("builtin-require:"))
    .map((input) => join(apiDir, input));
}

if (!bundleIsFresh()) {
  const { build } = await import("esbuild");
  const result = await build({
    absWorkingDir: apiDir,
    entryPoints: { api: "src/main.ts" },
    outdir,
    outExtension: { ".js": ".mjs" },
    // Chunks are named by their content, so two starts building at once write the same files.
    chunkNames: "chunks/[name]-[hash]",
    splitting: true,
    write: false,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node24",
    // The OpenTelemetry SDK is imported only when traces are configured: outside the bundle, it is then
    // read from node_modules, and otherwise never parsed.
    external: ["@electric-sql/pglite", "@electric-sql/pglite/*", "@opentelemetry/*"],
    // CommonJS packages inside an ES module bundle still call require() for Node's built-in modules.
    banner: {
      js: 'import { createRequire as __bundleRequire } from "node:module"; const require = __bundleRequire(import.meta.url);',
    },
    plugins: [httpThroughRequire],
    metafile: true,
    logLevel: "warning",
  });
  // Chunks first, then the entry and the metafile, each written aside and renamed into place: a start
  // never imports a half-written file, nor an entry whose chunks are not there yet.
  mkdirSync(chunksDir, { recursive: true });
  const outputs = result.outputFiles.sort((a, b) => Number(a.path === outfile) - Number(b.path === outfile));
  for (const [path, contents] of [
    ...outputs.map((output) => [output.path, output.contents]),
    [metafile, JSON.stringify({ inputs: files(result.metafile) })],
  ]) {
    writeFileSync(`${path}.${process.pid}`, contents);
    renameSync(`${path}.${process.pid}`, path);
  }
  // Chunks of earlier builds, unless written in the last ten minutes: a process started from another
  // build (other sources, another port and directory) may not have read its service's chunks yet.
  const kept = new Set(outputs.map((output) => basename(output.path)));
  for (const name of readdirSync(chunksDir)) {
    const path = join(chunksDir, name);
    if (!kept.has(name) && statSync(path).mtimeMs < Date.now() - 600_000) rmSync(path, { force: true });
  }
}
// `--build-only` (the container image's build stage): the bundle, without starting it.
if (!process.argv.includes("--build-only")) {
  // V8's compiled code of the bundle is kept on disk (Node's compile cache, in the temp directory) and
  // reused by the next start of the same bundle: parsing it was a third of the time to `/healthz`.
  enableCompileCache();
  await import(pathToFileURL(outfile).href);
}
