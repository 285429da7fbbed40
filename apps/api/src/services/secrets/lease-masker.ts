import { type Database, eq, leases, type Tx } from "@fleet/db";
import type { Vault } from "../../runtime/vault.ts";
import type { ServiceContext } from "../shared/context.ts";
import { secretMasker } from "./mask.ts";

export type Mask = (text: string) => string;

/** How long a run's masker is reused before its fleet's declaration and secrets are read again. */
export const MASKER_TTL_MS = 10_000;
/** The most runs whose maskers one instance keeps; the oldest is dropped first. */
const MASKER_ENTRIES = 10_000;

interface Entry {
  workspaceId: string;
  mask: Mask;
  until: number;
  /** The values delivered to this run (credentials route): masked for the run's life on this instance. */
  delivered: Mask | null;
}

/** Each instance's maskers (keyed by its vault, which each instance builds once), by lease id. */
const caches = new WeakMap<Vault, Map<string, Entry>>();

function cacheOf(vault: Vault): Map<string, Entry> {
  let cache = caches.get(vault);
  if (cache === undefined) {
    cache = new Map();
    caches.set(vault, cache);
  }
  return cache;
}

/**
 * Keeps a run's masker, so the run's frames, memories and report mask without reading the fleet and its
 * secrets each time (a fleet that declares none reads its definition once per TTL, never a secret).
 * `delivered` marks the values the run was just given; they stay masked for the run's life here, even
 * once their secret is replaced or deleted.
 */
export function keepMasker(
  ctx: ServiceContext,
  leaseId: string,
  workspaceId: string,
  fresh: Mask,
  delivered: Mask | null = null,
): Mask {
  const cache = cacheOf(ctx.vault);
  const kept = delivered ?? cache.get(leaseId)?.delivered ?? null;
  const mask: Mask = kept === null || kept === delivered ? fresh : (text) => kept(fresh(text));
  cache.delete(leaseId);
  if (cache.size >= MASKER_ENTRIES) cache.delete(cache.keys().next().value!);
  cache.set(leaseId, { workspaceId, mask, until: ctx.now() + MASKER_TTL_MS, delivered: kept });
  return mask;
}

/** Marks this instance's maskers of a workspace's runs stale: one of its secrets changed. */
export function forgetMaskers(vault: Vault, workspaceId: string): void {
  const cache = caches.get(vault);
  if (cache === undefined) return;
  for (const entry of cache.values()) if (entry.workspaceId === workspaceId) entry.until = 0;
}

/** Drops a run's masker: its lease ended. */
export function dropMasker(vault: Vault, leaseId: string): void {
  caches.get(vault)?.delete(leaseId);
}

/** The masker of a run whose lease is known: cached, else built inside the caller's transaction. */
export async function leaseMasker(
  ctx: ServiceContext,
  tx: Database | Tx,
  lease: { id: string; fleetId: string; workspaceId: string },
): Promise<Mask> {
  const hit = cacheOf(ctx.vault).get(lease.id);
  if (hit !== undefined && hit.until > ctx.now()) return hit.mask;
  const mask = await secretMasker(tx, ctx.vault, lease.fleetId, lease.workspaceId);
  return keepMasker(ctx, lease.id, lease.workspaceId, mask);
}

/** The masker of a run known by its lease id only (a report, before its one statement); unknown: none. */
export async function leaseMaskerById(ctx: ServiceContext, leaseId: string): Promise<Mask> {
  const hit = cacheOf(ctx.vault).get(leaseId);
  if (hit !== undefined && hit.until > ctx.now()) return hit.mask;
  const [lease] = await ctx.db
    .select({ id: leases.id, fleetId: leases.fleetId, workspaceId: leases.workspaceId })
    .from(leases)
    .where(eq(leases.id, leaseId));
  if (lease === undefined) return (text) => text;
  return leaseMasker(ctx, ctx.db, lease);
}
