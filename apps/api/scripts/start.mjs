// `pnpm start:api`: runs the API from one bundled ES module (its TypeScript, the workspace packages and
// the npm packages it imports), built with esbuild when any of its inputs changed since the last build.
// One file starts in a third of the time the same code takes as hundreds of modules compiled on the fly
// (docs/decisions/operations.md, "Start-up"). PGlite stays outside the bundle: it loads its WebAssembly from beside
// its own module.
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const apiDir = join(dirname(fileURLToPath(import.meta.url)), "..");
const outfile = join(apiDir, "dist", "api.mjs");
const metafile = join(apiDir, "dist", "api.meta.json");

/** Whether the bundle is newer than this script and every file esbuild read to build it. */
function bundleIsFresh() {
  try {
    const built = statSync(outfile).mtimeMs;
    const { inputs } = JSON.parse(readFileSync(metafile, "utf8"));
    const sources = [
      fileURLToPath(import.meta.url),
      ...Object.keys(inputs).map((input) => join(apiDir, input)),
    ];
    return sources.every((source) => statSync(source).mtimeMs <= built);
  } catch {
    return false; // never built, or an input is gone
  }
}

if (!bundleIsFresh()) {
  const { build } = await import("esbuild");
  const result = await build({
    absWorkingDir: apiDir,
    entryPoints: ["src/main.ts"],
    outfile,
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
    metafile: true,
    logLevel: "warning",
  });
  // Written aside and renamed into place: two starts building at once never import a half-written file.
  mkdirSync(dirname(outfile), { recursive: true });
  for (const [path, contents] of [
    [outfile, result.outputFiles[0].contents],
    [metafile, JSON.stringify({ inputs: result.metafile.inputs })],
  ]) {
    writeFileSync(`${path}.${process.pid}`, contents);
    renameSync(`${path}.${process.pid}`, path);
  }
}
// `--build-only` (the container image's build stage): the bundle, without starting it.
if (!process.argv.includes("--build-only")) await import(pathToFileURL(outfile).href);
