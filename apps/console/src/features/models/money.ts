/**
 * Catalogue prices are nano-dollars per million tokens. People read and type dollars per million tokens:
 * "$3.00", "0.075". Conversions go through the decimal text, never a float multiply, so "0.3" is exactly
 * 300,000,000 nanos.
 */

/** Nano-dollars per million tokens as dollars: at least two decimals, more when the price has them. */
export function formatPerMillion(nanos: number): string {
  const whole = Math.floor(nanos / 1e9);
  const fraction = String(nanos % 1e9)
    .padStart(9, "0")
    .replace(/0+$/, "");
  return `$${whole.toLocaleString("en")}.${fraction.padEnd(2, "0")}`;
}

/** The same price as an editable field value ("3", "0.075"), without the dollar sign. */
export function dollarsText(nanos: number): string {
  return formatPerMillion(nanos).slice(1).replace(/,/g, "").replace(/\.00$/, "");
}

const DOLLARS = /^\$?\s*(\d{1,9})(?:\.(\d{0,9}))?$/;

/** Typed dollars as nano-dollars, or null when the text is not a price (negative, too precise, words). */
export function parseDollars(text: string): number | null {
  const match = DOLLARS.exec(text.trim().replace(/,/g, ""));
  if (!match) return null;
  const [, whole = "0", fraction = ""] = match;
  return Number(whole) * 1e9 + Number(fraction.padEnd(9, "0"));
}
