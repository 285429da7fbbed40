"use client";

import { type ReactNode, useEffect, useId, useRef } from "react";
import { CloseIcon } from "./icons.tsx";

export interface DialogProps {
  open: boolean;
  onClose: () => void;
  title: ReactNode;
  description?: ReactNode;
  /**
   * Whether Esc, an outside click or the close button may dismiss the dialog. False for content that
   * must not be lost by accident, such as a secret shown once.
   */
  dismissible?: boolean;
  children?: ReactNode;
  footer?: ReactNode;
  tone?: "default" | "danger";
  /** "wide" for forms with rows of fields side by side. */
  size?: "default" | "wide";
}

/**
 * A modal on the native <dialog>: the browser traps focus, makes the page inert and restores focus on
 * close. The `open` prop is the one source of truth; the dialog never closes itself.
 */
export function Dialog({
  open,
  onClose,
  title,
  description,
  dismissible = true,
  children,
  footer,
  tone = "default",
  size = "default",
}: DialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const pressedOnBackdrop = useRef(false);
  const titleId = useId();
  const descriptionId = useId();

  useEffect(() => {
    const dialog = ref.current;
    if (dialog === null) return;
    if (open && !dialog.open) {
      dialog.showModal();
      dialog.querySelector<HTMLElement>("[data-autofocus]")?.focus();
    } else if (!open && dialog.open) {
      dialog.close();
    }
  }, [open]);

  useEffect(() => {
    // closedby="none" makes Chromium ignore Esc outright; the handlers below cover other browsers.
    ref.current?.setAttribute("closedby", dismissible ? "closerequest" : "none");
  }, [dismissible]);

  return (
    <dialog
      ref={ref}
      className={`ui-dialog ui-dialog--${tone} ui-dialog--${size}`}
      aria-labelledby={titleId}
      aria-describedby={description ? descriptionId : undefined}
      data-dismissible={dismissible}
      // Chromium may close without a cancelable event (no user activation since the last Esc); keep the
      // parent's state in step when it does.
      onClose={() => {
        if (open) onClose();
      }}
      onCancel={(event) => {
        event.preventDefault();
        if (dismissible) onClose();
      }}
      onKeyDown={(event) => {
        if (event.key === "Escape" && !dismissible) event.preventDefault();
      }}
      // A press that starts and ends on the backdrop is an outside click; a text selection dragged out of
      // the panel is not.
      onMouseDown={(event) => {
        pressedOnBackdrop.current = event.target === event.currentTarget;
      }}
      onMouseUp={(event) => {
        const outside = pressedOnBackdrop.current && event.target === event.currentTarget;
        pressedOnBackdrop.current = false;
        if (outside && dismissible) onClose();
      }}
    >
      {open ? (
        <div className="ui-dialog__panel">
          <header className="ui-dialog__header">
            <div>
              <h2 id={titleId} className="ui-dialog__title">
                {title}
              </h2>
              {description ? (
                <p id={descriptionId} className="ui-dialog__description">
                  {description}
                </p>
              ) : null}
            </div>
            {dismissible ? (
              <button type="button" className="ui-icon-button" aria-label="Close dialog" onClick={onClose}>
                <CloseIcon />
              </button>
            ) : null}
          </header>
          <div className="ui-dialog__body">{children}</div>
          {footer ? <footer className="ui-dialog__footer">{footer}</footer> : null}
        </div>
      ) : null}
    </dialog>
  );
}
