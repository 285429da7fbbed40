import { Problem } from "@fleet/contracts";
import { and, type Database, type DeliveredSealed, eq, leases, type Tx } from "@fleet/db";
import type { Vault } from "../../runtime/vault.ts";
import type { ServiceContext } from "../shared/context.ts";
import { declaredValues, maskerOfValues, type SecretValue, secretValues } from "./mask.ts";

export type Mask = (text: string) => string;

/**
 * A run's lease as the masker needs it. `deliveredSealed` is the lease's column as the caller read it
 * (a fenced write reads the whole row): undefined when the caller did not read it, then it is read here.
 */
export interface MaskedLease {
  id: string;
  fleetId: string;
  workspaceId: string;
  deliveredSealed?: DeliveredSealed[] | null;
}

/** How long a run's masker is reused before its fleet's declaration and secrets are read again. */
export const MASKER_TTL_MS = 10_000;
/** The most runs whose maskers one instance keeps. */
export const MASKER_ENTRIES = 10_000;
/** The most bytes (UTF-8) of values one instance's kept maskers hold, declared and delivered together. */
export const MASKER_BYTES = 32 * 1024 * 1024;

interface Entry {
  workspaceId: string;
  fleetId: string;
  mask: Mask;
  until: number;
  /** Every value delivered to this run (each credentials delivery adds its own): masked for its life. */
  delivered: SecretValue[];
  /** Until when the entry may not be evicted (its delivered values are this instance's copy; the lease
   * holds them sealed too): the lease's latest possible end; 0 when nothing was delivered. */
  pinnedUntil: number;
  /** How many sealed deliveries of the lease (its `delivered_sealed`) the masker was built with. */
  sealedSeen: number;
  bytes: number;
}

interface Cache {
  entries: Map<string, Entry>;
  bytes: number;
}

/** Each instance's maskers (keyed by its vault, which each instance builds once), by lease id. */
const caches = new WeakMap<Vault, Cache>();

function cacheOf(vault: Vault): Cache {
  let cache = caches.get(vault);
  if (cache === undefined) {
    cache = { entries: new Map(), bytes: 0 };
    caches.set(vault, cache);
  }
  return cache;
}

function bytesOf(values: SecretValue[]): number {
  let bytes = 0;
  for (const { value } of values) bytes += Buffer.byteLength(value);
  return bytes;
}

/** The values delivered before, plus the new ones not among them (a retried delivery adds nothing). */
function withDelivered(before: SecretValue[], delivered: SecretValue[]): SecretValue[] {
  const known = new Set(before.map(({ name, value }) => `${name}\u0000${value}`));
  const kept = [...before];
  for (const item of delivered) {
    const key = `${item.name}\u0000${item.value}`;
    if (known.has(key)) continue;
    known.add(key);
    kept.push(item);
  }
  return kept;
}

function remove(cache: Cache, leaseId: string): void {
  const entry = cache.entries.get(leaseId);
  if (entry === undefined) return;
  cache.entries.delete(leaseId);
  cache.bytes -= entry.bytes;
}

/**
 * Makes room for an entry of `bytes`, oldest first, within both bounds. An entry holding delivered values
 * is evicted only once its lease cannot be alive any more (kept as it was before the values were also
 * sealed on the lease). Answers whether the entry fits.
 */
function makeRoom(cache: Cache, bytes: number, now: number): boolean {
  const fits = () => cache.entries.size < MASKER_ENTRIES && cache.bytes + bytes <= MASKER_BYTES;
  if (fits()) return true;
  for (const [leaseId, entry] of cache.entries) {
    if (entry.pinnedUntil > now) continue;
    remove(cache, leaseId);
    if (fits()) return true;
  }
  return false;
}

/**
 * Keeps a run's masker, so the run's frames, memories and report mask without reading the fleet and its
 * secrets each time (a fleet that declares none reads its definition once per TTL, never a secret).
 * `fresh` are the declared values as just read; `delivery` the values the run was just given, added to
 * those given before, and the latest its lease may end: they stay masked for the run's life here, even
 * once their secret is replaced or deleted. One masker masks them all in one pass. A delivery this
 * instance cannot keep (both bounds spent on other runs' delivered values) is refused before anything is
 * delivered.
 */
export function keepMasker(
  ctx: ServiceContext,
  lease: { id: string; fleetId: string; workspaceId: string },
  fresh: SecretValue[],
  delivery: { values: SecretValue[]; until: number } | null = null,
  sealedSeen = 0,
): Mask {
  const delivered = delivery?.values ?? [];
  const cache = cacheOf(ctx.vault);
  const now = ctx.now();
  const before = cache.entries.get(lease.id);
  const kept = withDelivered(before?.delivered ?? [], delivered);
  const mask = maskerOfValues([...fresh, ...kept]);
  const bytes = bytesOf(fresh) + bytesOf(kept);
  const pinnedUntil = Math.max(delivered.length > 0 ? delivery!.until : 0, before?.pinnedUntil ?? 0);
  remove(cache, lease.id);
  if (!makeRoom(cache, bytes, now)) {
    // The entry as it was stays (its delivered values with it); a rebuilt masker is used, not kept.
    if (before !== undefined) {
      cache.entries.set(lease.id, before);
      cache.bytes += before.bytes;
    }
    if (delivered.length > 0)
      throw new Problem("UZ-API-001", {
        detail:
          "This instance keeps as many delivered credential values as it may (to mask them); retry after the Retry-After delay.",
        headers: { "retry-after": "30" },
      });
    return mask;
  }
  cache.entries.set(lease.id, {
    workspaceId: lease.workspaceId,
    fleetId: lease.fleetId,
    mask,
    until: now + MASKER_TTL_MS,
    delivered: kept,
    pinnedUntil,
    sealedSeen,
    bytes,
  });
  cache.bytes += bytes;
  return mask;
}

/** Marks this instance's maskers of a workspace's runs stale: one of its secrets changed. */
export function forgetMaskers(vault: Vault, workspaceId: string): void {
  const cache = caches.get(vault);
  if (cache === undefined) return;
  for (const entry of cache.entries.values()) if (entry.workspaceId === workspaceId) entry.until = 0;
}

/** Drops a run's masker: its lease ended. */
export function dropMasker(vault: Vault, leaseId: string): void {
  const cache = caches.get(vault);
  if (cache !== undefined) remove(cache, leaseId);
}

/** The values of a lease's sealed deliveries, each sealed form opened once. */
export function deliveredValues(vault: Vault, workspaceId: string, sealed: DeliveredSealed[]): SecretValue[] {
  const seen = new Set<string>();
  const opened: { name: string; data: unknown }[] = [];
  for (const item of sealed) {
    if (seen.has(item.ciphertext)) continue;
    seen.add(item.ciphertext);
    opened.push({ name: item.name, data: vault.open(workspaceId, item.name, item) });
  }
  return secretValues(opened);
}

/** The lease's sealed deliveries, for a caller that did not read its row (one row by key). */
async function sealedOf(tx: Database | Tx, leaseId: string): Promise<DeliveredSealed[] | null> {
  const [row] = await tx
    .select({ sealed: leases.deliveredSealed })
    .from(leases)
    .where(eq(leases.id, leaseId));
  return row?.sealed ?? null;
}

/**
 * The masker of a run whose lease is known: cached, else built inside the caller's transaction from the
 * fleet's declared values and the values sealed on the lease at each delivery (by any instance). A cached
 * masker built before a delivery the caller's lease row shows is rebuilt, so a delivery on another
 * instance is masked here from the first write after it, not after the TTL.
 */
export async function leaseMasker(ctx: ServiceContext, tx: Database | Tx, lease: MaskedLease): Promise<Mask> {
  const hit = cacheOf(ctx.vault).entries.get(lease.id);
  const shown = lease.deliveredSealed?.length ?? 0;
  if (hit !== undefined && hit.until > ctx.now() && shown <= hit.sealedSeen) return hit.mask;
  const sealed = lease.deliveredSealed !== undefined ? lease.deliveredSealed : await sealedOf(tx, lease.id);
  const fresh = await declaredValues(tx, ctx.vault, lease.fleetId, lease.workspaceId);
  if (sealed != null) fresh.push(...deliveredValues(ctx.vault, lease.workspaceId, sealed));
  return keepMasker(ctx, lease, fresh, null, sealed?.length ?? 0);
}

/**
 * The masker of a run known by its lease id only (a report, before its one statement); unknown: none.
 * The lease's sealed deliveries are read each time (one row by key), so a cached masker misses none.
 */
export async function leaseMaskerById(ctx: ServiceContext, leaseId: string): Promise<Mask> {
  const [lease] = await ctx.db
    .select({
      id: leases.id,
      fleetId: leases.fleetId,
      workspaceId: leases.workspaceId,
      deliveredSealed: leases.deliveredSealed,
    })
    .from(leases)
    .where(eq(leases.id, leaseId));
  if (lease === undefined) return (text) => text;
  return leaseMasker(ctx, ctx.db, lease);
}

/**
 * The masker of a fleet's text that no lease carries (a grant's gate, a person's reason on a gate): the
 * declared values as they are now, plus the values sealed on the fleet's running lease at its deliveries
 * (by any instance) and every value this instance delivered to the fleet's runs it still keeps, so a
 * value a run was given is not readable where its fleet's people read either. Not cached.
 */
export async function fleetMasker(
  tx: Database | Tx,
  vault: Vault,
  fleet: { fleetId: string; workspaceId: string },
): Promise<Mask> {
  const values = await declaredValues(tx, vault, fleet.fleetId, fleet.workspaceId);
  const running = await tx
    .select({ sealed: leases.deliveredSealed })
    .from(leases)
    .where(and(eq(leases.fleetId, fleet.fleetId), eq(leases.status, "running")));
  for (const { sealed } of running)
    if (sealed !== null) values.push(...deliveredValues(vault, fleet.workspaceId, sealed));
  const cache = caches.get(vault);
  if (cache !== undefined)
    for (const entry of cache.entries.values())
      if (entry.fleetId === fleet.fleetId) values.push(...entry.delivered);
  return maskerOfValues(values);
}
