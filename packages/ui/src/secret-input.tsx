"use client";

import {
  type InputHTMLAttributes,
  type TextareaHTMLAttributes,
  useLayoutEffect,
  useRef,
  useState,
} from "react";
import { EyeIcon, EyeOffIcon } from "./icons.tsx";

/**
 * What every secret control carries: no autofill, no spelling or capitalisation help (which would send the
 * text to a dictionary service or change it), and password managers told to stay away.
 */
const secretAttributes = {
  autoComplete: "off",
  autoCorrect: "off",
  autoCapitalize: "off",
  spellCheck: false,
  "data-1p-ignore": "",
  "data-lpignore": "true",
  "data-bwignore": "",
  "data-form-type": "other",
} as const;

/**
 * Writes a controlled value to the element's `value` property only. React mirrors a controlled input's
 * value into its `value` attribute (and a text area's into its text), which puts the secret in the page's
 * markup for anything that serialises the DOM; the property is where the browser keeps what was typed.
 */
function usePropertyValue<E extends HTMLInputElement | HTMLTextAreaElement>(value: unknown) {
  const ref = useRef<E>(null);
  useLayoutEffect(() => {
    const element = ref.current;
    const text = value === undefined || value === null ? "" : String(value);
    if (element && element.value !== text) element.value = text;
  }, [value]);
  return ref;
}

function RevealButton({ label, shown, onToggle }: { label: string; shown: boolean; onToggle: () => void }) {
  return (
    <button
      type="button"
      className="ui-icon-button ui-secret__toggle"
      // One name in both states; aria-pressed says whether the value is showing.
      aria-label={label}
      aria-pressed={shown}
      onClick={onToggle}
    >
      {shown ? <EyeOffIcon /> : <EyeIcon />}
    </button>
  );
}

export interface SecretInputProps
  extends Omit<InputHTMLAttributes<HTMLInputElement>, "type" | "defaultValue"> {
  /** The show toggle's accessible name, verb + object ("Show value 1"). */
  revealLabel: string;
}

/**
 * A masked single-line value with a show toggle; a password input, so screen readers do not echo it. The
 * value is kept out of the markup (see usePropertyValue); `onChange` reports every edit as usual.
 */
export function SecretInput({ revealLabel, className, value, ...rest }: SecretInputProps) {
  const [shown, setShown] = useState(false);
  const ref = usePropertyValue<HTMLInputElement>(value);
  return (
    <span className="ui-secret" data-shown={shown || undefined}>
      <input
        {...rest}
        ref={ref}
        {...secretAttributes}
        type={shown ? "text" : "password"}
        className={["ui-input", "ui-input--mono", "ui-secret__control", className].filter(Boolean).join(" ")}
      />
      <RevealButton label={revealLabel} shown={shown} onToggle={() => setShown((value) => !value)} />
    </span>
  );
}

export interface SecretTextareaProps
  extends Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, "defaultValue"> {
  /** The show toggle's accessible name ("Show JSON"). */
  revealLabel: string;
}

/**
 * A masked multi-line value with a show toggle. Text areas have no password type, so the characters are
 * drawn as discs by CSS (`-webkit-text-security`, which Chromium, Safari and current Firefox support).
 */
export function SecretTextarea({ revealLabel, className, value, ...rest }: SecretTextareaProps) {
  const [shown, setShown] = useState(false);
  const ref = usePropertyValue<HTMLTextAreaElement>(value);
  return (
    <span className="ui-secret ui-secret--multiline" data-shown={shown || undefined}>
      <textarea
        {...rest}
        ref={ref}
        {...secretAttributes}
        className={[
          "ui-textarea",
          "ui-secret__control",
          shown ? null : "ui-secret__control--masked",
          className,
        ]
          .filter(Boolean)
          .join(" ")}
      />
      <RevealButton label={revealLabel} shown={shown} onToggle={() => setShown((value) => !value)} />
    </span>
  );
}
