"use client";

import { useEffect, useId, useRef, useState } from "react";
import { Button } from "./button.tsx";
import { CheckIcon, CopyIcon } from "./icons.tsx";

type CopyState = "idle" | "copied" | "failed";

/** Writes text to the clipboard; false when the browser refuses (no permission, insecure context). */
async function writeClipboard(text: string): Promise<boolean> {
  try {
    if (!navigator.clipboard) return false;
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}

export interface CopyFieldProps {
  label: string;
  value: string;
  /** The Copy button's accessible name, verb + object ("Copy API key deploy-bot"). */
  copyLabel: string;
  /** Focus the Copy button when the field appears (it may replace the focused element, as in a dialog). */
  autoFocus?: boolean;
}

/** A read-only value with a Copy button; when the clipboard fails the value is selected for a manual copy. */
export function CopyField({ label, value, copyLabel, autoFocus }: CopyFieldProps) {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const [state, setState] = useState<CopyState>("idle");

  useEffect(() => {
    if (autoFocus) button.current?.focus();
  }, [autoFocus]);

  async function copy() {
    const ok = await writeClipboard(value);
    setState(ok ? "copied" : "failed");
    if (!ok) input.current?.select();
  }

  return (
    <div className="ui-copyfield" data-copy-state={state}>
      <label htmlFor={id} className="ui-label">
        {label}
      </label>
      <div className="ui-copyfield__row">
        <input
          ref={input}
          id={id}
          className="ui-input ui-input--mono"
          readOnly
          value={value}
          spellCheck={false}
          autoComplete="off"
          onFocus={(event) => event.currentTarget.select()}
        />
        <Button
          ref={button}
          variant="primary"
          aria-label={copyLabel}
          icon={state === "copied" ? <CheckIcon /> : <CopyIcon />}
          onClick={copy}
        >
          {state === "copied" ? "Copied" : "Copy"}
        </Button>
      </div>
      <p className={`ui-copyfield__status ui-copyfield__status--${state}`} role="status">
        {state === "copied" ? "Copied to the clipboard." : null}
        {state === "failed"
          ? "The browser did not allow copying. The value is selected: press Ctrl+C (⌘C on a Mac) to copy it."
          : null}
      </p>
    </div>
  );
}

/**
 * A small Copy button for values shown inline, such as a request id; with `labelled`, a button that shows
 * its label beside the icon (for a footer's "Copy diagnostic").
 */
export function CopyButton({ value, label, labelled }: { value: string; label: string; labelled?: boolean }) {
  const [state, setState] = useState<CopyState>("idle");
  return (
    <>
      <button
        type="button"
        className={
          labelled ? "ui-button ui-button--secondary ui-button--sm" : "ui-icon-button ui-icon-button--sm"
        }
        aria-label={labelled ? undefined : label}
        onClick={async () => setState((await writeClipboard(value)) ? "copied" : "failed")}
      >
        {state === "copied" ? <CheckIcon /> : <CopyIcon />}
        {labelled ? label : null}
      </button>
      <span role="status" className="ui-inline-status">
        {state === "copied" ? "Copied" : state === "failed" ? "Copy failed: select the text to copy it" : ""}
      </span>
    </>
  );
}
