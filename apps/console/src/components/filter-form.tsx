"use client";

import { Button, SelectField, TextField } from "@fleet/ui";
import { type ReactNode, useState } from "react";
import { Link } from "./link.tsx";
import "./filter-form.css";

/** Each field's problem, by the field's name; null or absent when the field is fine. */
export type FilterProblems = Record<string, string | null | undefined>;

/**
 * A list's filter bar. Applying it navigates, so the filters live in the URL. `check` reads the fields
 * (trimmed) and answers each one's problem, refusing on the field what the API would refuse, before
 * anything is sent; with no problem it applies the filters itself.
 */
export function FilterForm({
  label,
  clearHref,
  check,
  children,
  submitLabel = "Apply filters",
  clearLabel = "Clear filters",
}: {
  label: string;
  clearHref: string | undefined;
  submitLabel?: string;
  clearLabel?: string;
  check: (read: (name: string) => string) => FilterProblems;
  children: (problems: FilterProblems) => ReactNode;
}) {
  const [problems, setProblems] = useState<FilterProblems>({});
  return (
    <form
      className="filters"
      aria-label={label}
      noValidate
      // A field edited after a refusal loses its problem; the next Apply checks it again.
      onInput={(event) => {
        const { name } = event.target as HTMLInputElement;
        if (name && problems[name]) setProblems((current) => ({ ...current, [name]: null }));
      }}
      onSubmit={(event) => {
        event.preventDefault();
        const form = new FormData(event.currentTarget);
        const read = (name: string) => String(form.get(name) ?? "").trim();
        // What no filter takes, refused on its field before the form's own checks and before the URL.
        const unsearchable: FilterProblems = {};
        for (const name of new Set(form.keys())) unsearchable[name] = textProblem(read(name));
        setProblems(noProblems(unsearchable) ? check(read) : unsearchable);
      }}
    >
      {children(problems)}
      <div className="filters__actions">
        <Button type="submit" size="sm">
          {submitLabel}
        </Button>
        {clearHref ? (
          <Link className="ui-button ui-button--ghost ui-button--sm" href={clearHref}>
            {clearLabel}
          </Link>
        ) : null}
      </div>
    </form>
  );
}

/** The longest value any filter field takes (no list allows more), which also keeps the URL short. */
const FIELD_MAX = 300;
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this finds
const CONTROL = /[\u0000-\u001f\u007f]/;

/**
 * A value no list can be filtered by: a control character, or too long. (An unpaired surrogate never gets
 * here: FormData hands every value over as valid Unicode, with U+FFFD in its place.)
 */
function textProblem(value: string): string | null {
  if (CONTROL.test(value)) return "Remove the control character: no filter value contains one.";
  if (value.length > FIELD_MAX) return `Use at most ${FIELD_MAX} characters.`;
  return null;
}

/** True when no field has a problem. */
export function noProblems(problems: FilterProblems): boolean {
  return !Object.values(problems).some(Boolean);
}

/**
 * A free-text filter. It remounts with the URL's value when that changes (Back, Clear), so the field
 * always shows the filter in force.
 */
export function FilterText({
  name,
  label,
  value,
  placeholder,
  error,
}: {
  name: string;
  label: string;
  value: string;
  placeholder: string;
  error: string | null | undefined;
}) {
  return (
    <TextField
      key={`${name}:${value}`}
      name={name}
      label={label}
      defaultValue={value}
      placeholder={placeholder}
      autoComplete="off"
      spellCheck={false}
      error={error ?? null}
    />
  );
}

/**
 * A filter with a fixed set of values and "any" first. Like `FilterText` it remounts with the URL's value;
 * a value the URL holds that is not among the choices is shown as it is, so the field says what is applied.
 */
export function FilterSelect({
  name,
  label,
  value,
  anyLabel,
  choices,
}: {
  name: string;
  label: string;
  value: string;
  anyLabel: string;
  choices: readonly { value: string; label: string }[];
}) {
  const known = value === "" || choices.some((choice) => choice.value === value);
  return (
    <SelectField key={`${name}:${value}`} name={name} label={label} defaultValue={value}>
      <option value="">{anyLabel}</option>
      {known ? null : <option value={value}>{value}</option>}
      {choices.map((choice) => (
        <option key={choice.value} value={choice.value}>
          {choice.label}
        </option>
      ))}
    </SelectField>
  );
}
