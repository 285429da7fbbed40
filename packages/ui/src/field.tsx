import { type InputHTMLAttributes, type ReactNode, type SelectHTMLAttributes, useId } from "react";
import { ChevronIcon } from "./icons.tsx";

/** The ids a field's control points at with aria-describedby: its hint, then its error. */
function describedBy(...ids: (string | false | null | undefined)[]): string | undefined {
  const present = ids.filter(Boolean);
  return present.length > 0 ? present.join(" ") : undefined;
}

/** Why a field's value is refused, tied to the field and announced when it appears. */
export function FieldError({ id, children }: { id?: string; children: ReactNode }) {
  return (
    <p id={id} className="ui-field-error">
      {children}
    </p>
  );
}

export interface TextFieldProps extends InputHTMLAttributes<HTMLInputElement> {
  label: string;
  hint?: string;
  /** Marks the field optional in its label; required fields are the unmarked default. */
  optional?: boolean;
  /** Why the value is refused; marks the input invalid and is read with it. */
  error?: string | null;
}

/** A labelled input with an optional hint and error tied to it through aria-describedby. */
export function TextField({ label, hint, optional, error, id, className, ...rest }: TextFieldProps) {
  const generated = useId();
  const inputId = id ?? generated;
  const hintId = `${inputId}-hint`;
  const errorId = `${inputId}-error`;
  return (
    <div className="ui-field">
      <label htmlFor={inputId} className="ui-label">
        {label}
        {optional ? <span className="ui-label__optional"> (optional)</span> : null}
      </label>
      <input
        id={inputId}
        className={["ui-input", className].filter(Boolean).join(" ")}
        aria-describedby={describedBy(hint && hintId, error && errorId)}
        aria-invalid={error ? true : undefined}
        {...rest}
      />
      {hint ? (
        <p id={hintId} className="ui-hint">
          {hint}
        </p>
      ) : null}
      {error ? <FieldError id={errorId}>{error}</FieldError> : null}
    </div>
  );
}

export interface SelectFieldProps extends SelectHTMLAttributes<HTMLSelectElement> {
  label: string;
  hint?: string;
  /** Label and control side by side, for a picker in a toolbar. */
  inline?: boolean;
}

/** A labelled native select: keyboard, type-ahead and screen readers work as everywhere else. */
export function SelectField({ label, hint, inline, id, className, children, ...rest }: SelectFieldProps) {
  const generated = useId();
  const selectId = id ?? generated;
  const hintId = `${selectId}-hint`;
  return (
    <div className={inline ? "ui-field ui-field--inline" : "ui-field"}>
      <label htmlFor={selectId} className="ui-label">
        {label}
      </label>
      <span className="ui-select">
        <select
          id={selectId}
          className={["ui-select__control", className].filter(Boolean).join(" ")}
          aria-describedby={hint ? hintId : undefined}
          {...rest}
        >
          {children}
        </select>
        <ChevronIcon />
      </span>
      {hint ? (
        <p id={hintId} className="ui-hint">
          {hint}
        </p>
      ) : null}
    </div>
  );
}
