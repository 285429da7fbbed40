"use client";

import {
  Button,
  FieldError,
  PlusIcon,
  SecretInput,
  SecretTextarea,
  SegmentedControl,
  TrashIcon,
} from "@fleet/ui";
import { useEffect, useId, useRef, useState } from "react";
import {
  type Checked,
  formatBytes,
  jsonToData,
  jsonToRows,
  liveSize,
  type Row,
  rowsToData,
  rowsToJson,
  SECRET_DATA_LIMIT,
  type SecretData,
  type ValueMode,
} from "./value.ts";
import "./value-editor.css";

/**
 * What the person has typed as a secret's value, as rows or as raw JSON. It lives only in the dialog's
 * form: closing the dialog unmounts the form and the value with it.
 */
export interface ValueState {
  mode: ValueMode;
  rows: Row[];
  json: string;
  nextId: number;
  /** Why the value was refused (on submit) or a switch of view was (JSON that rows cannot hold). */
  message: string | null;
  /** The element the message is about, marked invalid. */
  invalid: string | null;
}

export function initialValue(): ValueState {
  return {
    mode: "fields",
    rows: [{ id: 1, key: "value", value: "" }],
    json: "",
    nextId: 2,
    message: null,
    invalid: null,
  };
}

const modeChoices = [
  { value: "fields", label: "Key/value" },
  { value: "json", label: "JSON" },
] as const;

/** Element ids inside one editor, so a refusal can point at the field it is about. */
function idsFor(prefix: string) {
  return {
    key: (row: Row) => `${prefix}-key-${row.id}`,
    value: (row: Row) => `${prefix}-value-${row.id}`,
    json: `${prefix}-json`,
    error: `${prefix}-error`,
    hint: `${prefix}-hint`,
  };
}

/** The body to send, or why not; on refusal the state carries the message and the field to fix. */
export function readValue(state: ValueState, prefix: string): Checked<SecretData> {
  const ids = idsFor(prefix);
  if (state.mode === "json") {
    const checked = jsonToData(state.json);
    return checked.ok ? checked : { ...checked, focus: ids.json };
  }
  return rowsToData(state.rows, ids);
}

/** Puts the cursor in the element with this id, when there is one. */
export function focusField(id: string | undefined) {
  if (id) document.getElementById(id)?.focus();
}

/**
 * One value editor's state, for a form that holds it (and so forgets the value when it unmounts), and the
 * read its submit makes: a refused value is marked in the editor, and the field to fix is returned.
 */
export function useValueEditor() {
  const idPrefix = useId();
  const [state, setState] = useState<ValueState>(initialValue);
  const read = (): Checked<SecretData> => {
    const checked = readValue(state, idPrefix);
    if (!checked.ok) setState({ ...state, message: checked.message, invalid: checked.focus ?? null });
    return checked;
  };
  return { read, editor: { state, onChange: setState, idPrefix } };
}

export interface ValueEditorProps {
  state: ValueState;
  onChange: (next: ValueState) => void;
  /** A prefix for element ids, unique on the page (a useId). */
  idPrefix: string;
  label?: string;
}

/**
 * Key/value rows (the default: one row named "value") or raw JSON, with every value masked behind a show
 * toggle. The size is shown as the API counts it, so the 4 KiB limit is no surprise.
 */
export function ValueEditor({ state, onChange, idPrefix, label = "Value" }: ValueEditorProps) {
  const ids = idsFor(idPrefix);
  const focusAfter = useRef<string | null>(null);

  useEffect(() => {
    if (focusAfter.current === null) return;
    document.getElementById(focusAfter.current)?.focus();
    focusAfter.current = null;
  });

  // Any edit makes an earlier refusal stale.
  const edit = (patch: Partial<ValueState>) => onChange({ ...state, message: null, invalid: null, ...patch });

  function switchMode(mode: ValueMode) {
    if (mode === state.mode) return;
    if (mode === "json") {
      const json = rowsToJson(state.rows);
      if (!json.ok) return onChange({ ...state, message: json.message, invalid: null });
      return edit({ mode, json: json.value });
    }
    const rows = jsonToRows(state.json);
    if (!rows.ok) return onChange({ ...state, message: rows.message, invalid: ids.json });
    let nextId = state.nextId;
    const next = rows.value.map((entry) => ({ id: nextId++, ...entry }));
    if (next.length === 0) next.push({ id: nextId++, key: "value", value: "" });
    edit({ mode, rows: next, nextId });
  }

  function updateRow(id: number, patch: Partial<Row>) {
    edit({ rows: state.rows.map((row) => (row.id === id ? { ...row, ...patch } : row)) });
  }

  function addRow() {
    const row = { id: state.nextId, key: "", value: "" };
    focusAfter.current = ids.key(row);
    edit({ rows: [...state.rows, row], nextId: state.nextId + 1 });
  }

  function removeRow(index: number) {
    const rows = state.rows.filter((_, i) => i !== index);
    const neighbour = rows[Math.min(index, rows.length - 1)];
    if (neighbour) focusAfter.current = ids.key(neighbour);
    edit({ rows });
  }

  const size = liveSize(state.mode, state.rows, state.json);
  const over = size !== null && size > SECRET_DATA_LIMIT;
  const describedBy = (id: string) =>
    [ids.hint, state.invalid === id && state.message ? ids.error : null].filter(Boolean).join(" ");

  return (
    <fieldset className="value-editor">
      {/* A legend cannot sit in a flex row beside the view switch, so it is read and the label is seen. */}
      <legend className="ui-visually-hidden">{label}</legend>
      <div className="value-editor__head">
        <span className="ui-label" aria-hidden="true">
          {label}
        </span>
        <SegmentedControl
          label={`Enter the ${label.toLowerCase()} as`}
          value={state.mode}
          choices={modeChoices}
          onChange={switchMode}
        />
      </div>

      {state.mode === "fields" ? (
        <div className="value-rows">
          <div className="value-rows__header" aria-hidden="true">
            <span>Key</span>
            <span>Value</span>
          </div>
          {state.rows.map((row, index) => {
            const position = index + 1;
            return (
              <div key={row.id} className="value-row">
                <input
                  id={ids.key(row)}
                  className="ui-input ui-input--mono value-row__key"
                  aria-label={`Key ${position}`}
                  aria-describedby={describedBy(ids.key(row))}
                  aria-invalid={state.invalid === ids.key(row) || undefined}
                  value={row.key}
                  maxLength={256}
                  placeholder="key"
                  autoComplete="off"
                  autoCapitalize="off"
                  spellCheck={false}
                  onChange={(event) => updateRow(row.id, { key: event.target.value })}
                />
                <SecretInput
                  id={ids.value(row)}
                  aria-label={`Value ${position}`}
                  aria-describedby={describedBy(ids.value(row))}
                  aria-invalid={state.invalid === ids.value(row) || undefined}
                  revealLabel={`Show value ${position}`}
                  value={row.value}
                  onChange={(event) => updateRow(row.id, { value: event.target.value })}
                />
                {state.rows.length > 1 ? (
                  <button
                    type="button"
                    className="ui-icon-button value-row__remove"
                    aria-label={`Remove row ${position}${row.key ? ` (${row.key})` : ""}`}
                    onClick={() => removeRow(index)}
                  >
                    <TrashIcon />
                  </button>
                ) : (
                  <span className="value-row__remove" aria-hidden="true" />
                )}
              </div>
            );
          })}
          <div>
            <Button size="sm" variant="ghost" icon={<PlusIcon />} onClick={addRow}>
              Add a field
            </Button>
          </div>
        </div>
      ) : (
        <SecretTextarea
          id={ids.json}
          aria-label={`${label} as JSON`}
          aria-describedby={describedBy(ids.json)}
          aria-invalid={state.invalid === ids.json || undefined}
          revealLabel="Show JSON"
          rows={7}
          placeholder={'{\n  "token": "…"\n}'}
          value={state.json}
          onChange={(event) => edit({ json: event.target.value })}
        />
      )}

      <div className="value-editor__foot">
        <p id={ids.hint} className="ui-hint">
          {state.mode === "fields"
            ? "Each key becomes a field of the secret’s JSON object; values are stored as text."
            : "A JSON object; its values may be text, numbers, booleans, arrays or objects."}
        </p>
        <p className="value-editor__size" data-over={over || undefined}>
          {size === null ? "Not valid JSON yet" : `${formatBytes(size)} of ${formatBytes(SECRET_DATA_LIMIT)}`}
        </p>
      </div>
      <div aria-live="polite">
        {state.message ? <FieldError id={ids.error}>{state.message}</FieldError> : null}
      </div>
    </fieldset>
  );
}
