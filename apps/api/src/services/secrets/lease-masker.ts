import {
  and,
  type Database,
  type DeliveredSealed,
  eq,
  jsonbValue,
  leases,
  resultRows,
  sql,
  type Tx,
} from "@fleet/db";
import type { Vault } from "../../runtime/vault.ts";
import type { ServiceContext } from "../shared/context.ts";
import { batchesOf, type GroupCommit } from "../shared/group-commit.ts";
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
  /** The fleet's declared secrets, when the caller read them with the lease (else they are read here). */
  declared?: string[];
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

function remove(cache: Cache, leaseId: string): void {
  const entry = cache.entries.get(leaseId);
  if (entry === undefined) return;
  cache.entries.delete(leaseId);
  cache.bytes -= entry.bytes;
}

/**
 * Makes room for an entry of `bytes`, oldest first, within both bounds: every entry can be rebuilt from
 * the database (the fleet's secrets and the lease's sealed deliveries). Answers whether the entry fits.
 */
function makeRoom(cache: Cache, bytes: number): boolean {
  if (bytes > MASKER_BYTES) return false;
  const fits = () => cache.entries.size < MASKER_ENTRIES && cache.bytes + bytes <= MASKER_BYTES;
  for (const leaseId of cache.entries.keys()) {
    if (fits()) return true;
    remove(cache, leaseId);
  }
  return fits();
}

/**
 * Keeps a run's masker, so the run's frames, memories and report mask without reading the fleet and its
 * secrets each time (a fleet that declares none reads its definition once per TTL, never a secret).
 * `values` are everything the run's masker masks: the declared values as just read and the values of the
 * lease's sealed deliveries, of which there were `sealedSeen`. One masker masks them all in one pass. A
 * masker too big to keep is used, not kept.
 */
export function keepMasker(
  ctx: ServiceContext,
  lease: { id: string; fleetId: string; workspaceId: string },
  values: SecretValue[],
  sealedSeen = 0,
): Mask {
  const cache = cacheOf(ctx.vault);
  const mask = maskerOfValues(values);
  const bytes = bytesOf(values);
  remove(cache, lease.id);
  if (!makeRoom(cache, bytes)) return mask;
  cache.entries.set(lease.id, {
    workspaceId: lease.workspaceId,
    fleetId: lease.fleetId,
    mask,
    until: ctx.now() + MASKER_TTL_MS,
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
  const fresh = await declaredValues(tx, ctx.vault, lease.fleetId, lease.workspaceId, lease.declared);
  if (sealed != null) fresh.push(...deliveredValues(ctx.vault, lease.workspaceId, sealed));
  return keepMasker(ctx, lease, fresh, sealed?.length ?? 0);
}

/**
 * The masker of a run known by its lease id only (a report, before its batch's statement); unknown: none.
 * The lease's sealed deliveries are read each time, so a cached masker misses none: with its fleet's
 * declaration, in one statement shared with every report read by the end of this event-loop turn
 * (`readLeases`), so a busy instance's reports read their leases in one round trip, not one each.
 */
export async function leaseMaskerById(ctx: ServiceContext, leaseId: string): Promise<Mask> {
  const lease = await batchesOf(reads, ctx, readLeases).store({ id: String(++readCount), leaseId });
  if (lease === null) return (text) => text;
  return leaseMasker(ctx, ctx.db, lease);
}

interface LeaseRead {
  /** Unique in the queue: two reports of one lease may be read in one statement. */
  id: string;
  leaseId: string;
}

let readCount = 0;
const reads = new WeakMap<Database, GroupCommit<LeaseRead, MaskedLease | null>>();

/**
 * The leases of a batch of reads, each with its fleet's declared secrets, in one statement: each lease and
 * its fleet looked up by key (lateral, fenced with `offset 0`). As a join on `id = any(…)`, the prepared
 * statement's generic plan read 229 buffers a batch of 6.7 leases (1 ms) in the lease cycles' bench.
 */
async function readLeases(db: Database, rows: LeaseRead[]): Promise<Map<string, MaskedLease | null>> {
  const found = resultRows<{
    id: string;
    fleet_id: string;
    workspace_id: string;
    delivered_sealed: DeliveredSealed[] | string | null;
    declared: string[] | string | null;
  }>(
    await db.execute(sql`
      select l.id, l.fleet_id, l.workspace_id, l.delivered_sealed, f.declared
      from unnest(${sql.param([...new Set(rows.map((row) => row.leaseId))])}::uuid[]) as q(id)
      cross join lateral (select * from leases where id = q.id offset 0) l
      cross join lateral (
        select definition -> 'requirements' -> 'credentials' as declared from fleets where id = l.fleet_id offset 0
      ) f`),
  );
  const byId = new Map<string, MaskedLease>();
  for (const row of found) {
    byId.set(row.id, {
      id: row.id,
      fleetId: row.fleet_id,
      workspaceId: row.workspace_id,
      deliveredSealed: jsonbValue(row.delivered_sealed),
      declared: jsonbValue(row.declared) ?? [],
    });
  }
  // Ids reach here as the contracts spell them, in lower case, as the database answers them.
  return new Map(rows.map((row) => [row.id, byId.get(row.leaseId) ?? null]));
}

/**
 * The masker of a fleet's text that no lease carries (a grant's gate, a person's reason on a gate): the
 * declared values as they are now, plus the values sealed on the fleet's running lease at its deliveries
 * (by any instance), so a value a run was given is not readable where its fleet's people read either.
 * Not cached.
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
  return maskerOfValues(values);
}
