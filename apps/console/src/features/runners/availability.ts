import { lacksScope, type OperatorSession } from "./operator-access.tsx";
import type { RunnerView } from "./status.ts";

export type RunnerAction = "policy" | "cordon" | "drain" | "reactivate" | "revoke" | "delete";

/**
 * Why each action is not available for this runner and this operator token, or null when it is. It mirrors
 * the API's rules so a button can say why before anyone clicks; the API still decides every request.
 */
export function unavailableActions(
  runner: RunnerView,
  operator: OperatorSession,
): Record<RunnerAction, string | null> {
  const write = (what: string) => lacksScope(operator, "runner:write", what);
  const admin = (what: string) => lacksScope(operator, "runner:admin", what);
  const revoked = runner.status === "revoked" ? "The runner is revoked: it takes no changes any more." : null;
  return {
    policy: write("Editing the policy") ?? revoked,
    cordon:
      write("Cordoning") ??
      revoked ??
      (runner.status === "cordoned" ? "The runner is already cordoned." : null),
    drain:
      write("Draining") ??
      revoked ??
      (runner.status === "draining"
        ? "The runner is already draining."
        : runner.status === "drained"
          ? "The runner has already drained."
          : null),
    reactivate:
      write("Reactivating") ??
      revoked ??
      (runner.status === "active" ? "The runner is already active." : null),
    revoke: admin("Revoking") ?? (runner.status === "revoked" ? "The runner is already revoked." : null),
    delete:
      admin("Deleting") ??
      (runner.status === "revoked" ? null : "Only a revoked runner can be deleted: revoke it first."),
  };
}
