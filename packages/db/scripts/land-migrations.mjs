// `pnpm --filter @fleet/db migrations:land`: appends to drizzle/landed.json every migration of the journal
// that is not in it yet (its tag, `when` and the SHA-256 of its SQL), once that migration has landed on
// main. Entries already in the manifest are never rewritten: `src/landed.test.ts` fails when a landed
// migration's SQL, tag, `when` or place changes, and this script refuses to paper over it.
import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const folder = join(dirname(fileURLToPath(import.meta.url)), "..", "drizzle");
const manifestPath = join(folder, "landed.json");
const journal = JSON.parse(readFileSync(join(folder, "meta", "_journal.json"), "utf8"));
const manifest = JSON.parse(readFileSync(manifestPath, "utf8"));
const sha256 = (tag) =>
  createHash("sha256")
    .update(readFileSync(join(folder, `${tag}.sql`)).toString())
    .digest("hex");

journal.entries.forEach((entry, index) => {
  const landed = manifest.migrations[index];
  if (landed === undefined) return;
  if (landed.tag !== entry.tag || landed.when !== entry.when || landed.sha256 !== sha256(entry.tag)) {
    console.error(`migrations:land: ${landed.tag} (place ${index}) changed after it landed; restore it`);
    process.exit(1);
  }
});
const added = journal.entries.slice(manifest.migrations.length).map((entry) => ({
  tag: entry.tag,
  when: entry.when,
  sha256: sha256(entry.tag),
}));
manifest.migrations.push(...added);
writeFileSync(manifestPath, `${JSON.stringify(manifest, null, 2)}\n`);
console.log(added.length === 0 ? "nothing to land" : `landed: ${added.map((m) => m.tag).join(", ")}`);
