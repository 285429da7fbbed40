/** Number formatting shared by several features (fleets, fleet events, runners). */
const integer = new Intl.NumberFormat("en");

export function formatCount(value: number): string {
  return integer.format(value);
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
