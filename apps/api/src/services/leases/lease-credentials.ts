import { Problem } from "@fleet/contracts";
import { eq, fleets, runners } from "@fleet/db";
import { keepMasker } from "../secrets/lease-masker.ts";
import { declaredSecrets, secretValues } from "../secrets/mask.ts";
import { type Actor, recordAudit } from "../shared/audit.ts";
import type { ServiceContext } from "../shared/context.ts";
import { fencedWrite } from "../shared/fence.ts";
import { LEASE_MAX_MS } from "./lease-terms.ts";

/**
 * The values of the secrets the lease's fleet declares, for the lease's current holder on a runner whose
 * host satisfies its assigned policy. Read, audited and answered in one fenced transaction (the fleet row
 * is locked: no newer lease is granted meanwhile). The delivered values join this instance's masker of
 * the run (with those of earlier deliveries), so what the run sends back is masked without reading them
 * again, and still masked once their secret is replaced or deleted.
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
    const values = secretValues(opened);
    keepMasker(ctx, lease, values, { values, until: lease.createdAt + LEASE_MAX_MS });
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
