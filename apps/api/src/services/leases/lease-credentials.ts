import { Problem } from "@fleet/contracts";
import { type DeliveredSealed, eq, fleets, leases, runners, sql, type Tx } from "@fleet/db";
import { deliveredValues, keepMasker } from "../secrets/lease-masker.ts";
import { declaredSecrets, secretValues } from "../secrets/mask.ts";
import { type Actor, recordAudit } from "../shared/audit.ts";
import type { ServiceContext } from "../shared/context.ts";
import { fencedWrite } from "../shared/fence.ts";

/**
 * Appends to the lease's sealed deliveries the delivered rows it does not hold yet (a retried delivery
 * adds nothing; two racing ones at worst add a copy, opened once), in one statement. Answers all the
 * lease now holds, as the update left it (a racing delivery's rows included), or null when nothing was
 * added.
 */
async function keepSealed(
  tx: Tx,
  lease: { id: string; deliveredSealed: DeliveredSealed[] | null },
  rows: DeliveredSealed[],
): Promise<DeliveredSealed[] | null> {
  const held = new Set((lease.deliveredSealed ?? []).map((item) => item.ciphertext));
  const added = rows
    .filter((row) => !held.has(row.ciphertext))
    .map(({ name, wrappedKey, ciphertext }) => ({ name, wrappedKey, ciphertext }));
  if (added.length === 0) return null;
  const [kept] = await tx
    .update(leases)
    .set({
      deliveredSealed: sql`coalesce(${leases.deliveredSealed}, '[]'::jsonb) || ${JSON.stringify(added)}::jsonb`,
    })
    .where(eq(leases.id, lease.id))
    .returning({ sealed: leases.deliveredSealed });
  return kept?.sealed ?? null;
}

/**
 * The values of the secrets the lease's fleet declares, for the lease's current holder on a runner whose
 * host satisfies its assigned policy. Read, audited and answered in one fenced transaction (the fleet row
 * is locked: no newer lease is granted meanwhile). The delivered secrets are kept sealed on the lease (as
 * the vault held them), so every instance's masker of the run masks their values, still once their secret
 * is replaced or deleted. A delivery that adds values rebuilds this instance's masker of the run at once,
 * from the values just read and the lease's other deliveries (no copy of the values is kept beside it).
 */
export async function leaseCredentials(
  ctx: ServiceContext,
  actor: Actor,
  runnerId: string,
  input: { lease_id: string; fencing_token: number },
) {
  const now = ctx.now();
  return fencedWrite(ctx, runnerId, input, async (tx, lease) => {
    if (lease.expiresAt <= now) {
      throw new Problem("UZ-RUN-005", {
        detail: "This lease has expired; its holder may no longer receive its credentials.",
        current_state: "expired",
      });
    }
    const [runner] = await tx
      .select({ degraded: runners.degraded, reason: runners.degradedReason })
      .from(runners)
      .where(eq(runners.id, runnerId));
    if (runner === undefined || runner.degraded) {
      throw new Problem("UZ-EXEC-017", {
        detail: `The runner is degraded (${runner?.reason ?? "unknown"}); no credentials are delivered to it until a heartbeat satisfies its policy.`,
        current_state: "degraded",
      });
    }
    const [fleet] = await tx
      .select({ definition: fleets.definition, tenantId: fleets.tenantId })
      .from(fleets)
      .where(eq(fleets.id, lease.fleetId));
    const declared = [...new Set(fleet?.definition.requirements.credentials ?? [])];
    const rows = declared.length === 0 ? [] : await declaredSecrets(tx, lease.workspaceId, declared);
    const held = new Map(rows.map((row) => [row.name, row]));
    const opened: { name: string; data: Record<string, unknown> }[] = [];
    for (const name of declared) {
      const row = held.get(name);
      if (row !== undefined) opened.push({ name, data: ctx.vault.open(lease.workspaceId, name, row) });
    }
    const missing = declared.filter((name) => !held.has(name));
    await recordAudit(tx, {
      actor,
      at: now,
      tenantId: fleet!.tenantId,
      workspaceId: lease.workspaceId,
      action: "lease.credentials",
      target: `lease:${lease.id}`,
      details: {
        runner_id: runnerId,
        fleet_id: lease.fleetId,
        secret_names: opened.map((item) => item.name),
        missing_names: missing,
      },
    });
    // Added to the values delivered before: every delivery's values stay masked for the run's life.
    const sealed = await keepSealed(tx, lease, rows);
    if (sealed !== null) {
      const given = new Set(rows.map((row) => row.ciphertext));
      const others = sealed.filter((item) => !given.has(item.ciphertext));
      const values = [...secretValues(opened), ...deliveredValues(ctx.vault, lease.workspaceId, others)];
      keepMasker(ctx, lease, values, sealed.length);
    }
    return {
      lease_id: lease.id,
      credentials: declared.map((name) => {
        const item = opened.find((entry) => entry.name === name);
        return item === undefined ? { name, missing: true as const } : item;
      }),
      expires_at: lease.expiresAt,
    };
  });
}
