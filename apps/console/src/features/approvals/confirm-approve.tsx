"use client";

import { ConfirmDialog } from "@fleet/ui";
import type { Gate } from "./answer.ts";
import { actionLabel } from "./labels.ts";

/**
 * The a key asks before it approves a gate of high blast radius: one its approval policy rule marks high,
 * or, when the rule does not say, one whose blast radius names production or says high or critical. The
 * API decides it when the gate opens (`high_blast`; docs/decisions/approvals.md, "One key and the blast
 * radius").
 */
export function highBlast(gate: Pick<Gate, "high_blast">): boolean {
  return gate.high_blast;
}

/** Approving a high-blast gate that the a key asked for: what it is, where it reaches, and one more step. */
export function ConfirmApprove({
  gate,
  reason,
  onConfirm,
  onCancel,
}: {
  gate: Gate | null;
  reason: string;
  onConfirm: (gate: Gate) => void;
  onCancel: () => void;
}) {
  return (
    <ConfirmDialog
      open={gate !== null}
      title="Approve this gate?"
      tone="default"
      confirmLabel="Approve"
      onCancel={onCancel}
      onConfirm={() => gate && onConfirm(gate)}
    >
      {gate ? (
        <>
          <p className="dialog-text">
            <strong>{actionLabel(gate)}</strong> on {gate.fleet_name} reaches{" "}
            <strong>{gate.blast_radius}</strong>. Approving lets the fleet run it now.
          </p>
          {reason.trim() ? <p className="dialog-text">Your reason: {reason.trim()}</p> : null}
          <p className="dialog-text muted">
            The a key asks first for a gate of high blast radius: one the approval policy marks high, or one
            whose blast radius names production or says high or critical.
          </p>
        </>
      ) : null}
    </ConfirmDialog>
  );
}
