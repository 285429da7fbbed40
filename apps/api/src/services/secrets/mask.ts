import { and, type Database, eq, fleets, inArray, secrets, type Tx } from "@fleet/db";
import type { Vault } from "../../runtime/vault.ts";

/** Values shorter than this are not masked: they would shred ordinary words. */
const MASKABLE_LENGTH = 4;

function stringLeaves(value: unknown, into: string[]): void {
  if (typeof value === "string") into.push(value);
  else if (Array.isArray(value)) for (const item of value) stringLeaves(item, into);
  else if (value && typeof value === "object")
    for (const item of Object.values(value)) stringLeaves(item, into);
}

/**
 * A function that replaces every value of the fleet's declared secrets in a text by `[secret:NAME]`, so
 * a fleet cannot persist a credential where people and logs would read it (a schedule's message, a
 * gate's proposed action and evidence). The secrets are read and opened once, inside the caller's
 * transaction.
 */
export async function secretMasker(
  tx: Database | Tx,
  vault: Vault,
  fleetId: string,
  workspaceId: string,
): Promise<(text: string) => string> {
  const [fleet] = await tx
    .select({ definition: fleets.definition })
    .from(fleets)
    .where(eq(fleets.id, fleetId));
  const declared = fleet?.definition.requirements.credentials ?? [];
  if (declared.length === 0) return (text) => text;
  const rows = await declaredSecrets(tx, workspaceId, declared);
  return maskerOf(rows.map((row) => ({ name: row.name, data: vault.open(workspaceId, row.name, row) })));
}

/** The rows of the declared secrets the workspace holds (sealed). */
export function declaredSecrets(tx: Database | Tx, workspaceId: string, declared: string[]) {
  return tx
    .select()
    .from(secrets)
    .where(and(eq(secrets.workspaceId, workspaceId), inArray(secrets.name, declared)));
}

/** The masker of opened secrets: every string leaf of each body, of 4 characters or more. */
export function maskerOf(opened: { name: string; data: unknown }[]): (text: string) => string {
  const values: { name: string; value: string }[] = [];
  for (const row of opened) {
    const leaves: string[] = [];
    stringLeaves(row.data, leaves);
    for (const value of leaves) if (value.length >= MASKABLE_LENGTH) values.push({ name: row.name, value });
  }
  // Longest first, so a value containing another is masked whole.
  values.sort((a, b) => b.value.length - a.value.length);
  if (values.length === 0) return (text) => text;
  return (text) => {
    let masked = text;
    for (const { name, value } of values) masked = masked.split(value).join(`[secret:${name}]`);
    return masked;
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
