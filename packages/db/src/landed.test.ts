import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { migrationsFolder } from "./client.ts";
import { codeMigrations } from "./journal.ts";

interface Landed {
  migrations: { tag: string; when: number; sha256: string }[];
}

const manifest = JSON.parse(readFileSync(join(migrationsFolder, "landed.json"), "utf8")) as Landed;
const code = codeMigrations(migrationsFolder);

/**
 * A database records each applied migration by its journal `when` and the SHA-256 of its SQL, and
 * drizzle's migrator applies only what sorts after the last applied `when`. So once a migration has
 * landed, changing its SQL, tag or `when`, or moving it in the journal, breaks every database that applied
 * it (start refuses it: journal.ts), or makes the migrator skip it silently.
 */
describe("the landed migrations (drizzle/landed.json)", () => {
  it("keep their place, tag, `when` and SQL", () => {
    expect(code.length).toBeGreaterThanOrEqual(manifest.migrations.length);
    manifest.migrations.forEach((landed, index) => {
      const migration = code[index];
      expect(
        { place: index, tag: migration?.tag, when: migration?.when, sha256: migration?.hash },
        `${landed.tag} changed or moved after it landed: add a new migration instead`,
      ).toEqual({ place: index, tag: landed.tag, when: landed.when, sha256: landed.sha256 });
    });
  });

  it("are followed only by new migrations appended at the end, later than every landed one", () => {
    const news = code.slice(manifest.migrations.length);
    let last = manifest.migrations.at(-1)?.when ?? 0;
    for (const migration of news) {
      expect(
        migration.when,
        `${migration.tag} sorts before a migration already in the journal`,
      ).toBeGreaterThan(last);
      last = migration.when;
    }
    const indices = (
      JSON.parse(readFileSync(join(migrationsFolder, "meta", "_journal.json"), "utf8")) as {
        entries: { idx: number }[];
      }
    ).entries.map((entry) => entry.idx);
    expect(indices).toEqual(indices.map((_, index) => index));
  });

  it("are every SQL file in the folder: none is left out of the journal", () => {
    const files = readdirSync(migrationsFolder).filter((name) => name.endsWith(".sql"));
    expect(files.sort()).toEqual(code.map((migration) => `${migration.tag}.sql`).sort());
  });
});
