/**
 * Text a fleet supplies (a gate's proposed action, its names, an answer) reaches chat escaped by the
 * vendor's formatting rules: Slack reads `&`, `<` and `>` as control characters, so `<!channel>` pings a
 * whole channel and `<https://evil.example|Approve>` shows a disguised link. Escaped, they show as typed.
 */
export function escapeChat(text: string): string {
  return text.replace(/[&<>]/g, (char) => (char === "&" ? "&amp;" : char === "<" ? "&lt;" : "&gt;"));
}

/**
 * Escaped text cut to at most `max` characters with an ellipsis, never inside an entity (`&amp;` cut to
 * `&am` would show as typed).
 */
export function clipChat(escaped: string, max: number): string {
  if (escaped.length <= max) return escaped;
  let cut = max - 1;
  const amp = escaped.lastIndexOf("&", cut);
  if (amp !== -1 && amp > cut - 5 && !escaped.slice(amp, cut).includes(";")) cut = amp;
  return `${escaped.slice(0, cut)}…`;
}
