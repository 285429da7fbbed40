"use client";

import { Button, Callout, CopyField, Dialog } from "@fleet/ui";
import type { ReactNode } from "react";

/**
 * Reveals a value the service shows only once (a new API key, a sign-in link). While it is on screen only
 * "Done" closes the dialog: Esc and outside clicks are ignored, so the only copy is not lost by a slip.
 */
export function ShownOnceDialog({
  open,
  onClose,
  title,
  description,
  warning,
  label,
  value,
  copyLabel,
}: {
  open: boolean;
  onClose: () => void;
  title: string;
  description: string;
  /** Why it matters, said above the value. */
  warning: ReactNode;
  label: string;
  value: string;
  copyLabel: string;
}) {
  return (
    <Dialog
      open={open}
      onClose={onClose}
      dismissible={false}
      title={title}
      description={description}
      footer={
        // A button of its own: reusing the form's Cancel button would animate it from grey to blue.
        <Button key="done" variant="primary" onClick={onClose}>
          Done
        </Button>
      }
    >
      <Callout>
        <p>{warning}</p>
      </Callout>
      <CopyField label={label} value={value} copyLabel={copyLabel} autoFocus />
    </Dialog>
  );
}
