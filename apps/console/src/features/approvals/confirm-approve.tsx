"use client";

import { ConfirmDialog } from "@fleet/ui";
import type { Gate } from "./answer.ts";
import { actionLabel } from "./labels.ts";

/**
 * A blast radius that names production, or calls itself high or critical: the a key asks before it
 * approves such a gate. Words, not a scale: `blast_radius` is the runner's free text, and the policy has
 * no field that marks a gate high yet (docs/decisions/approvals.md, "One key and the blast radius").
 */
const HIGH_BLAST = /\b(?:prod|production|high|critical)\b/i;

export function highBlast(gate: Pick<Gate, "blast_radius">): boolean {
  return HIGH_BLAST.test(gate.blast_radius);
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
            The a key asks first for a gate whose blast radius names production or says high or critical.
          </p>
        </>
      ) : null}
    </ConfirmDialog>
  );
}
