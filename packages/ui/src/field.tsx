import { type InputHTMLAttributes, useId } from "react";

export interface TextFieldProps extends InputHTMLAttributes<HTMLInputElement> {
  label: string;
  hint?: string;
  /** Marks the field optional in its label; required fields are the unmarked default. */
  optional?: boolean;
}

/** A labelled input with an optional hint tied to it through aria-describedby. */
export function TextField({ label, hint, optional, id, className, ...rest }: TextFieldProps) {
  const generated = useId();
  const inputId = id ?? generated;
  const hintId = `${inputId}-hint`;
  return (
    <div className="ui-field">
      <label htmlFor={inputId} className="ui-label">
        {label}
        {optional ? <span className="ui-label__optional"> (optional)</span> : null}
      </label>
      <input
        id={inputId}
        className={["ui-input", className].filter(Boolean).join(" ")}
        aria-describedby={hint ? hintId : undefined}
        {...rest}
      />
      {hint ? (
        <p id={hintId} className="ui-hint">
          {hint}
        </p>
      ) : null}
    </div>
  );
}
