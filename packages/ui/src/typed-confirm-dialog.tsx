"use client";

import { type ReactNode, useEffect, useId, useState } from "react";
import { Button } from "./button.tsx";
import { Dialog } from "./dialog.tsx";
import { ProblemAlert, type ProblemView } from "./problem-alert.tsx";

export interface TypedConfirmDialogProps {
  open: boolean;
  title: string;
  /** The consequence, in plain words. */
  children: ReactNode;
  /** What the person types to confirm, usually the resource's name. */
  phrase: string;
  /** The confirming button's label, verb + object ("Kill fleet"). */
  confirmLabel: string;
  onConfirm: () => void;
  onCancel: () => void;
  pending?: boolean;
  problem?: ProblemView | null;
}

/**
 * Asks before an action that cannot be undone and is large enough that one click should not do it: the
 * confirm button acts only once the phrase is typed exactly, and says why until then.
 */
export function TypedConfirmDialog({
  open,
  title,
  children,
  phrase,
  confirmLabel,
  onConfirm,
  onCancel,
  pending = false,
  problem,
}: TypedConfirmDialogProps) {
  const formId = useId();
  const inputId = useId();
  const hintId = useId();
  const [typed, setTyped] = useState("");
  const matches = typed === phrase;
  // Every opening starts empty: a phrase typed for one fleet must not confirm the next.
  useEffect(() => {
    if (!open) setTyped("");
  }, [open]);

  return (
    <Dialog
      open={open}
      onClose={onCancel}
      title={title}
      tone="danger"
      dismissible={!pending}
      footer={
        <>
          <Button onClick={onCancel} disabled={pending}>
            Cancel
          </Button>
          <Button
            type="submit"
            form={formId}
            variant="danger"
            pending={pending}
            disabled={!matches}
            aria-describedby={hintId}
          >
            {confirmLabel}
          </Button>
        </>
      }
    >
      {children}
      <form
        id={formId}
        className="ui-field"
        onSubmit={(event) => {
          event.preventDefault();
          if (matches && !pending) onConfirm();
        }}
      >
        <label htmlFor={inputId} className="ui-label">
          Type <span className="ui-typed-confirm__phrase">{phrase}</span> to confirm
        </label>
        <input
          id={inputId}
          className="ui-input ui-input--mono"
          value={typed}
          onChange={(event) => setTyped(event.target.value)}
          autoComplete="off"
          autoCapitalize="off"
          spellCheck={false}
          aria-describedby={hintId}
          data-autofocus
        />
        <p id={hintId} className="ui-hint" aria-live="polite">
          {matches
            ? "The text matches: the button is ready."
            : `The button stays disabled until you type ${phrase} exactly.`}
        </p>
      </form>
      {problem ? <ProblemAlert problem={problem} /> : null}
    </Dialog>
  );
}
