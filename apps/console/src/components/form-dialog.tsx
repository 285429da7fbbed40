"use client";

import { Dialog, type DialogProps, FormDialogFooter, ProblemAlert } from "@fleet/ui";
import { forgetOnEdit } from "../lib/field-errors.ts";
import { problemOf } from "../lib/problem.ts";
import type { ApiError } from "../lib/trpc.ts";
import "./form-dialog.css";

export interface FormDialogProps extends Omit<DialogProps, "dismissible" | "footer"> {
  /** The form (inside children) the footer's submit button submits. */
  formId: string;
  submitLabel: string;
  /**
   * What the form's submit runs: while pending the dialog stays open; its refusal shows under the form
   * until a field is changed (`reset` then forgets it: it answered values no longer there).
   */
  mutation: { isPending: boolean; error: ApiError | null; reset: () => void };
}

/** A dialog around one form whose submit runs one mutation: Cancel and submit, pending state, problem. */
export function FormDialog({ formId, submitLabel, mutation, onClose, children, ...dialog }: FormDialogProps) {
  return (
    <Dialog
      {...dialog}
      onClose={onClose}
      dismissible={!mutation.isPending}
      footer={
        <FormDialogFooter
          formId={formId}
          submitLabel={submitLabel}
          pending={mutation.isPending}
          onCancel={onClose}
        />
      }
    >
      {/* The form is among the children: its edits bubble here. */}
      <div className="form-dialog__body" onInput={forgetOnEdit(mutation)}>
        {children}
      </div>
      {mutation.error ? <ProblemAlert problem={problemOf(mutation.error)} /> : null}
    </Dialog>
  );
}
