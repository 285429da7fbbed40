"use client";

import { type ReactNode, useId, useMemo } from "react";
import { CopyButton } from "./copy.tsx";

/** The text pretty-printed when it is JSON, else as it came (with a note saying so). */
export function prettyJson(text: string): { json: boolean; text: string } {
  try {
    return { json: true, text: JSON.stringify(JSON.parse(text), null, 2) };
  } catch {
    return { json: false, text };
  }
}

// A string (a key when a colon follows), a number, a literal; everything else is punctuation or space.
const token = /("(?:\\.|[^"\\])*")(\s*:)?|(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)|\b(true|false|null)\b/g;

/** Pretty-printed JSON as spans a stylesheet colours: keys, strings, numbers and literals. */
function highlight(text: string): ReactNode[] {
  const parts: ReactNode[] = [];
  let last = 0;
  for (const match of text.matchAll(token)) {
    const at = match.index ?? 0;
    if (at > last) parts.push(text.slice(last, at));
    const [whole, string, colon, number, literal] = match;
    if (string !== undefined) {
      parts.push(
        <span key={at} className={colon ? "ui-json__key" : "ui-json__string"}>
          {string}
        </span>,
      );
      if (colon) parts.push(colon);
    } else if (number !== undefined) {
      parts.push(
        <span key={at} className="ui-json__number">
          {number}
        </span>,
      );
    } else {
      parts.push(
        <span key={at} className="ui-json__literal">
          {literal}
        </span>,
      );
    }
    last = at + whole.length;
  }
  if (last < text.length) parts.push(text.slice(last));
  return parts;
}

export interface JsonViewerProps {
  /** What the value is ("Request"); names the region and its Copy button ("Copy request"). */
  label: string;
  text: string;
  /** Said when the text is not JSON; null for values that are often plain text (a model's answer). */
  notJsonNote?: string | null;
}

/**
 * A stored JSON value, pretty-printed and coloured, in a scrollable region the keyboard can reach, with a
 * Copy button for the pretty text. Text that does not parse is shown as it is, and says so.
 */
export function JsonViewer({ label, text, notJsonNote = "Not JSON; shown as stored" }: JsonViewerProps) {
  const headingId = useId();
  const pretty = useMemo(() => prettyJson(text), [text]);
  const content = useMemo(() => (pretty.json ? highlight(pretty.text) : pretty.text), [pretty]);
  return (
    <div className="ui-json" data-json={pretty.json}>
      <header className="ui-json__header">
        <h3 id={headingId} className="ui-json__title">
          {label}
        </h3>
        {pretty.json || !notJsonNote ? null : <span className="ui-json__note">{notJsonNote}</span>}
        <span className="ui-json__copy">
          <CopyButton value={pretty.text} label={`Copy ${label.toLowerCase()}`} />
        </span>
      </header>
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard */}
      <section className="ui-json__body" tabIndex={0} aria-labelledby={headingId}>
        <pre>
          <code>{content}</code>
        </pre>
      </section>
    </div>
  );
}
