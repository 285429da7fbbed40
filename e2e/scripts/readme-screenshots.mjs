// Copies the README's three screenshots (light, 1440 px wide) from the screenshots suite's artifact
// (test-results/, written by `pnpm --filter @fleet/e2e screenshots`) into docs/images/.
// Fails, naming what is missing, when the suite has not run or did not shoot one of them.
import { copyFileSync, existsSync, mkdirSync, readdirSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const e2eDir = join(dirname(fileURLToPath(import.meta.url)), "..");
const results = join(e2eDir, "test-results");
const images = join(e2eDir, "..", "docs", "images");
const wanted = ["fleet-run", "approvals", "runner-detail"].map((name) => `${name}-light-1440.png`);

/** Every file under the directory, newest first, so a re-run's shot wins over a stale one. */
function files(dir) {
  if (!existsSync(dir)) return [];
  const found = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) found.push(...files(path));
    else found.push(path);
  }
  return found.sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs);
}

const all = files(results);
const missing = [];
mkdirSync(images, { recursive: true });
for (const name of wanted) {
  const source = all.find((path) => path.endsWith(`/${name}`));
  if (source === undefined) {
    missing.push(name);
    continue;
  }
  copyFileSync(source, join(images, name));
  console.log(`${name} ← ${source.slice(e2eDir.length + 1)}`);
}
if (missing.length > 0) {
  console.error(
    `not in ${results}: ${missing.join(", ")}; run \`pnpm --filter @fleet/e2e screenshots\` first`,
  );
  process.exit(1);
}
