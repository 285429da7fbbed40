import { Problem } from "@fleet/contracts";
import type { AssignedPolicy, Tx } from "@fleet/db";
import { type Actor, recordAudit } from "../shared/audit.ts";
import type { ServiceContext } from "../shared/context.ts";
import { runnerView } from "./runner-view.ts";

export function runnerNotFound(id: string): Problem {
  return new Problem("UZ-RUN-014", { detail: `No runner ${id}.` });
}

export function checkAssignable(ctx: ServiceContext, policy: AssignedPolicy): void {
  if (policy.sandbox_tier === "dev_none" && !ctx.config.devMode) {
    throw new Problem("UZ-RUN-016", {
      detail: "dev_none is assignable only when the service runs in dev mode (FLEET_DEV_MODE=true).",
    });
  }
}

/** Runner administration is operator-plane: its audit rows belong to no tenant. */
export function auditRunner(
  tx: Tx,
  actor: Actor,
  at: number,
  action: string,
  id: string,
  details: Record<string, unknown>,
) {
  return recordAudit(tx, {
    actor,
    at,
    tenantId: null,
    workspaceId: null,
    action,
    target: `runner:${id}`,
    details,
  });
}

/** One runner as the operator reads it (a get, and the answer to a change); 404 when there is none. */
export async function requireRunnerView(ctx: ServiceContext, id: string) {
  const view = await runnerView(ctx.db, id, ctx.now());
  if (view === undefined) throw runnerNotFound(id);
  return view;
}
