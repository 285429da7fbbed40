"use client";

import { Button } from "./button.tsx";

export interface FormDialogFooterProps {
  /** The id of the form the submit button submits (the form sits in the dialog's body). */
  formId: string;
  submitLabel: string;
  pending: boolean;
  onCancel: () => void;
}

/** Cancel and submit for a dialog that holds a form; both wait while the request runs. */
export function FormDialogFooter({ formId, submitLabel, pending, onCancel }: FormDialogFooterProps) {
  return (
    <>
      <Button onClick={onCancel} disabled={pending}>
        Cancel
      </Button>
      <Button type="submit" form={formId} variant="primary" pending={pending}>
        {submitLabel}
      </Button>
    </>
  );
}
