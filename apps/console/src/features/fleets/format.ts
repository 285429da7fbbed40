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

/** Milliseconds as the unit a person reads best: 850 ms, 12.4 s, 3 min 5 s. */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${integer.format(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const minutes = Math.floor(ms / 60_000);
  const seconds = Math.round((ms % 60_000) / 1000);
  return seconds === 0 ? `${minutes} min` : `${minutes} min ${seconds} s`;
}
