/** Input types that take no text: a letter pressed on them is no character typed. */
const NOT_TEXT = new Set([
  "checkbox",
  "radio",
  "button",
  "submit",
  "reset",
  "range",
  "color",
  "file",
  "image",
]);

/** What of an element tells whether keys pressed on it are text (the DOM element satisfies it). */
export interface KeyTarget {
  tagName: string;
  isContentEditable?: boolean;
  type?: string;
}

/**
 * Whether keys pressed with this target focused are text, so never shortcuts: a text field, a select, an
 * editable element. A checkbox or a button is no field: after ticking a gate's box, `j` and `x` still work.
 */
export function isTyping(target: unknown): boolean {
  if (typeof target !== "object" || target === null || !("tagName" in target)) return false;
  const element = target as KeyTarget;
  if (element.isContentEditable) return true;
  if (element.tagName === "INPUT") return !NOT_TEXT.has((element.type ?? "text").toLowerCase());
  return element.tagName === "TEXTAREA" || element.tagName === "SELECT";
}
