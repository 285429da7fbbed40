"use client";

import type { ReactNode } from "react";
import { Button } from "./button.tsx";
import { Dialog } from "./dialog.tsx";
import { ProblemAlert, type ProblemView } from "./problem-alert.tsx";

export interface ConfirmDialogProps {
  open: boolean;
  title: string;
  /** The consequence, in plain words ("Requests with this key fail at once."). */
  children: ReactNode;
  /** The confirming button's label, verb + object ("Revoke key"). */
  confirmLabel: string;
  onConfirm: () => void;
  onCancel: () => void;
  pending?: boolean;
  problem?: ProblemView | null;
  tone?: "default" | "danger";
}

/**
 * Asks before an action that cannot be undone. Cancel comes first and takes the focus, so a stray Enter
 * does nothing harmful; the dialog cannot be dismissed while the action runs.
 */
export function ConfirmDialog({
  open,
  title,
  children,
  confirmLabel,
  onConfirm,
  onCancel,
  pending = false,
  problem,
  tone = "danger",
}: ConfirmDialogProps) {
  return (
    <Dialog
      open={open}
      onClose={onCancel}
      title={title}
      tone={tone}
      dismissible={!pending}
      footer={
        <>
          <Button onClick={onCancel} disabled={pending} data-autofocus>
            Cancel
          </Button>
          <Button variant={tone === "danger" ? "danger" : "primary"} pending={pending} onClick={onConfirm}>
            {confirmLabel}
          </Button>
        </>
      }
    >
      {children}
      {problem ? <ProblemAlert problem={problem} /> : null}
    </Dialog>
  );
}
