/** Number formatting shared by several features (fleets, fleet events, runners). */

/**
 * `1234567.25` as `1,234,567.25`: what `Intl.NumberFormat("en")` writes (at most three decimals), without
 * building that formatter, whose construction loads ICU's locale data: ~30 ms of a fleet page's hydration
 * on this project's machines (issue 17 §5). Its unit test checks it against the formatter.
 */
export function formatCount(value: number): string {
  if (!Number.isFinite(value)) return value > 0 ? "∞" : value < 0 ? "-∞" : "NaN";
  const [whole = "0", fraction = ""] = Math.abs(value).toFixed(3).split(".");
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  const decimals = fraction.replace(/0+$/, "");
  const written = decimals === "" ? grouped : `${grouped}.${decimals}`;
  // Unlike Intl, no "-0" for a negative amount too small to show.
  return value < 0 && written !== "0" ? `-${written}` : written;
}

/** Nano-dollars as dollars, with enough digits that a fraction of a cent still shows. */
export function formatCost(nanos: number): string {
  const dollars = nanos / 1e9;
  if (dollars === 0) return "$0";
  if (dollars >= 1) return `$${dollars.toFixed(2)}`;
  // Two significant digits past the leading zeros, never the exponent notation toPrecision would use.
  const digits = Math.min(9, Math.max(2, Math.ceil(-Math.log10(dollars)) + 2));
  return `$${dollars.toFixed(digits).replace(/\.?0+$/, "")}`;
}

/**
 * A count and its noun, agreeing in number: "1 event", "2 events", "1,024 events" (English plural rules:
 * one is singular, anything else, zero included, plural). Irregular plurals are given.
 */
export function countOf(count: number, singular: string, plural = `${singular}s`): string {
  return `${formatCount(count)} ${count === 1 ? singular : plural}`;
}

/** A retention in words: "36 hours" below two days, else whole days ("7 days"). */
export function formatRetention(hours: number): string {
  return hours < 48 ? `${hours} hours` : `${Math.round(hours / 24)} days`;
}
