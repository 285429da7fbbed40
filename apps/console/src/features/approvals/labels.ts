import type { GateStatus } from "@fleet/contracts";
import type { StatusVariant } from "@fleet/ui";

export const gateStatusVariants: Record<GateStatus, StatusVariant> = {
  pending: { label: "Pending", tone: "warning" },
  approved: { label: "Approved", tone: "success" },
  denied: { label: "Denied", tone: "danger" },
  timed_out: { label: "Timed out", tone: "neutral" },
  // Closed by the service when the gate's fleet was stopped, killed or deleted: nobody answered it.
  auto_killed: { label: "Closed with its fleet", tone: "neutral" },
};

/** The status tabs, in the order a gate moves through them. */
export const statusTabs: { value: GateStatus; label: string }[] = [
  { value: "pending", label: "Pending" },
  { value: "approved", label: "Approved" },
  { value: "denied", label: "Denied" },
  { value: "timed_out", label: "Timed out" },
  { value: "auto_killed", label: "Closed with its fleet" },
];

/**
 * A gate's action as one name: the tool and what it does with it ("github · merge_pull_request"), or the
 * tool alone when the action is the tool's call itself (an agent's tool gate names the tool twice:
 * "memory_write", not "memory_write · memory_write").
 */
export function actionLabel(gate: { tool_name: string; action_name: string }): string {
  if (gate.action_name === "" || gate.action_name === gate.tool_name) return gate.tool_name;
  return `${gate.tool_name} · ${gate.action_name}`;
}
