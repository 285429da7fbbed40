import { and, type Database, eq, fleets, inArray, secrets, type Tx } from "@fleet/db";
import type { Vault } from "../../runtime/vault.ts";

/** Values shorter than this are not masked: they would shred ordinary words. */
const MASKABLE_LENGTH = 4;

/** One value to mask, and the name of the secret it belongs to. */
export interface SecretValue {
  name: string;
  value: string;
}

function stringLeaves(value: unknown, into: string[]): void {
  if (typeof value === "string") into.push(value);
  else if (Array.isArray(value)) for (const item of value) stringLeaves(item, into);
  else if (value && typeof value === "object")
    for (const item of Object.values(value)) stringLeaves(item, into);
}

/** The values to mask of opened secrets: every string leaf of each body, of 4 characters or more. */
export function secretValues(opened: { name: string; data: unknown }[]): SecretValue[] {
  const values: SecretValue[] = [];
  for (const row of opened) {
    const leaves: string[] = [];
    stringLeaves(row.data, leaves);
    for (const value of leaves) if (value.length >= MASKABLE_LENGTH) values.push({ name: row.name, value });
  }
  return values;
}

/**
 * The values of the fleet's declared secrets, read and opened once inside the caller's transaction (a
 * fleet that declares none reads its definition only; `known`, the declaration as the caller read it in
 * the same query as its lease, reads nothing more).
 */
export async function declaredValues(
  tx: Database | Tx,
  vault: Vault,
  fleetId: string,
  workspaceId: string,
  known?: string[],
): Promise<SecretValue[]> {
  const declared = known ?? (await declaredNames(tx, fleetId));
  if (declared.length === 0) return [];
  const rows = await declaredSecrets(tx, workspaceId, declared);
  return secretValues(rows.map((row) => ({ name: row.name, data: vault.open(workspaceId, row.name, row) })));
}

async function declaredNames(tx: Database | Tx, fleetId: string): Promise<string[]> {
  const [fleet] = await tx
    .select({ definition: fleets.definition })
    .from(fleets)
    .where(eq(fleets.id, fleetId));
  return fleet?.definition.requirements.credentials ?? [];
}

/** The rows of the declared secrets the workspace holds (sealed). */
export function declaredSecrets(tx: Database | Tx, workspaceId: string, declared: string[]) {
  return tx
    .select()
    .from(secrets)
    .where(and(eq(secrets.workspaceId, workspaceId), inArray(secrets.name, declared)));
}

const REGEX_SPECIALS = /[.*+?^${}()|[\]\\]/g;

/**
 * The masker of a list of values, one pass over each text: one regular expression, the alternation of
 * the escaped values longest first, finds at each place the longest value starting there. Every place a
 * value starts is visited (the search resumes one character after each start), so overlapping
 * occurrences are all found; a run of overlapping or nested occurrences is masked whole, as one
 * `[secret:NAME]` naming its longest value. No character of any value survives, and no value is looked
 * for inside another's `[secret:NAME]`. A value listed twice keeps its first name.
 */
export function maskerOfValues(values: SecretValue[]): (text: string) => string {
  const names = new Map<string, string>();
  for (const { name, value } of values) if (!names.has(value)) names.set(value, name);
  if (names.size === 0) return (text) => text;
  // Stable sort: of equally long values, the one listed first wins a tie at the same place.
  const ordered = [...names.keys()].sort((a, b) => b.length - a.length);
  const pattern = new RegExp(ordered.map((value) => value.replace(REGEX_SPECIALS, "\\$&")).join("|"), "g");
  return (text) => {
    pattern.lastIndex = 0;
    let found = pattern.exec(text);
    if (found === null) return text;
    let out = "";
    let copied = 0;
    while (found !== null) {
      // A run: this occurrence and every one starting before the run's end.
      const start = found.index;
      let end = start + found[0].length;
      let longest = found[0];
      pattern.lastIndex = start + 1;
      found = pattern.exec(text);
      while (found !== null && found.index < end) {
        end = Math.max(end, found.index + found[0].length);
        if (found[0].length > longest.length) longest = found[0];
        pattern.lastIndex = found.index + 1;
        found = pattern.exec(text);
      }
      out += `${text.slice(copied, start)}[secret:${names.get(longest)}]`;
      copied = end;
    }
    return out + text.slice(copied);
  };
}

/** Every string in a JSON value (keys included) masked; the input's depth is bounded at the contract. */
export function maskJson(value: unknown, mask: (text: string) => string): unknown {
  if (typeof value === "string") return mask(value);
  if (Array.isArray(value)) return value.map((item) => maskJson(item, mask));
  if (value && typeof value === "object")
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [mask(key), maskJson(item, mask)]));
  return value;
}
