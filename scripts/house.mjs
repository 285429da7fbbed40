// `node scripts/house.mjs`: the house's shape, as docs/architecture.md promises it. For the API's services
// and the console's features it counts the folder-to-folder import arrows and finds the loops (strongly
// connected folders); it lists the largest source files, and each folder's arrows with `--arrows`.
// Exits 1 when a loop spans more than two folders, an API or console source file is over 300 lines, an API
// test file is over 400, a console `lib/` or `components/` module imports a feature, or a module of
// `services/shared/` imports a resource: the promise is checked, not only stated.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const MAX_LINES = 300;
const MAX_TEST_LINES = 400;
const MAX_LOOP = 2;

/** Every .ts/.tsx file under `dir`, tests included (they import too, but are not counted as rooms). */
function sourceFiles(dir) {
  const out = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...sourceFiles(path));
    else if (/\.(ts|tsx)$/.test(name) && !/\.d\.ts$/.test(name)) out.push(path);
  }
  return out;
}

const importPattern =
  /(?:^|[\s;])(?:import|export)\s[^'"]*?from\s*["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/gm;

/** The relative modules a file imports (import, export … from, dynamic import), resolved to paths. */
function relativeImports(file) {
  const text = readFileSync(file, "utf8");
  const out = [];
  for (const match of text.matchAll(importPattern)) {
    const spec = match[1] ?? match[2];
    if (spec?.startsWith(".")) out.push(resolve(dirname(file), spec));
  }
  return out;
}

/** Tarjan's strongly connected components of a graph given as Map<node, Set<node>>. */
function loops(graph) {
  let index = 0;
  const stack = [];
  const on = new Set();
  const idx = new Map();
  const low = new Map();
  const out = [];
  const visit = (v) => {
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    on.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!idx.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v), idx.get(w)));
    }
    if (low.get(v) === idx.get(v)) {
      const component = [];
      let w;
      do {
        w = stack.pop();
        on.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1) out.push(component.sort());
    }
  };
  for (const v of graph.keys()) if (!idx.has(v)) visit(v);
  return out.sort((a, b) => b.length - a.length);
}

/** The folder graph of a layer: each direct child folder (or loose file's "(top)") of `base` is a node. */
function layer(name, base) {
  const abs = join(root, base);
  const folderOf = (path) => {
    const rel = relative(abs, path);
    if (rel.startsWith("..")) return null;
    const parts = rel.split("/");
    return parts.length > 1 ? parts[0] : null;
  };
  const graph = new Map();
  for (const file of sourceFiles(abs)) {
    if (/\.test\.tsx?$/.test(file)) continue;
    const from = folderOf(file);
    if (from === null) continue;
    if (!graph.has(from)) graph.set(from, new Set());
    for (const target of relativeImports(file)) {
      const to = folderOf(target);
      if (to !== null && to !== from) graph.get(from).add(to);
    }
  }
  const arrows = [...graph.values()].reduce((n, targets) => n + targets.size, 0);
  return { name, base, graph, arrows, folders: graph.size, loops: loops(graph) };
}

function lineCount(file) {
  const text = readFileSync(file, "utf8");
  return text.length === 0 ? 0 : text.split("\n").length - (text.endsWith("\n") ? 1 : 0);
}

const layers = [
  layer("services", "apps/api/src/services"),
  layer("console features", "apps/console/src/features"),
];
const showArrows = process.argv.includes("--arrows");
let failed = false;
for (const l of layers) {
  console.log(`${l.name} (${l.base}): ${l.folders} folders, ${l.arrows} folder-to-folder arrows`);
  if (l.loops.length === 0) console.log("  no loop");
  for (const loop of l.loops) {
    const tooBig = loop.length > MAX_LOOP;
    if (tooBig) failed = true;
    console.log(`  loop of ${loop.length}${tooBig ? " (over 2)" : ""}: ${loop.join(", ")}`);
  }
  if (showArrows) {
    for (const [from, targets] of [...l.graph].sort()) {
      if (targets.size > 0) console.log(`    ${from} → ${[...targets].sort().join(", ")}`);
    }
  }
}

// Floors that must import nothing above them: the console's shared lib/ and components/ import no feature,
// and the services' shared floor imports no resource.
const floors = [
  { base: "apps/console/src", from: ["lib", "components"], forbidden: "features", what: "a console feature" },
  { base: "apps/api/src/services", from: ["shared"], forbidden: null, what: "a resource" },
];
for (const floor of floors) {
  const abs = join(root, floor.base);
  for (const dir of floor.from) {
    if (!existsSync(join(abs, dir))) continue;
    for (const file of sourceFiles(join(abs, dir))) {
      for (const target of relativeImports(file)) {
        const rel = relative(abs, target);
        const top = rel.split("/")[0];
        const wrong =
          floor.forbidden === null
            ? !rel.startsWith("..") && rel.includes("/") && top !== dir
            : top === floor.forbidden;
        if (wrong) {
          failed = true;
          console.log(`${relative(root, file)} imports ${floor.what}: ${relative(root, target)}`);
        }
      }
    }
  }
}

// The largest files: the API's sources and the console's, tests apart.
const sized = [];
for (const base of ["apps/api/src", "apps/console/src", "apps/api/test", "apps/runner/src"]) {
  const abs = join(root, base);
  if (!existsSync(abs)) continue;
  for (const file of sourceFiles(abs)) sized.push({ path: relative(root, file), lines: lineCount(file) });
}
sized.sort((a, b) => b.lines - a.lines);
const isTest = (p) => /\.test\.tsx?$/.test(p) || p.startsWith("apps/api/test/");
const ruled = (p) => !isTest(p) && (p.startsWith("apps/api/src/") || p.startsWith("apps/console/src/"));
console.log("\nlargest source files (API, console, runner):");
for (const f of sized.filter((f) => !isTest(f.path)).slice(0, 10)) console.log(`  ${f.lines}  ${f.path}`);
const over = sized.filter((f) => ruled(f.path) && f.lines > MAX_LINES);
console.log(`API and console source files over ${MAX_LINES} lines: ${over.length}`);
for (const f of over) console.log(`  ${f.lines}  ${f.path}`);
if (over.length > 0) failed = true;
const tests = sized.filter((f) => isTest(f.path));
console.log("\nlargest test files:");
for (const f of tests.slice(0, 5)) console.log(`  ${f.lines}  ${f.path}`);
const longTests = tests.filter((f) => f.path.startsWith("apps/api/") && f.lines > MAX_TEST_LINES);
console.log(`API test files over ${MAX_TEST_LINES} lines: ${longTests.length}`);
for (const f of longTests) console.log(`  ${f.lines}  ${f.path}`);
if (longTests.length > 0) failed = true;
process.exit(failed ? 1 : 0);
