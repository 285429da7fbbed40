/**
 * When a running lease expires, to the second while it is near: a lease lives for its TTL (30 s by
 * default) and is renewed well before, so "just now", which the console's relative times say for anything
 * under five minutes ahead, read as if a lease that had just been renewed were expiring. A lease that has
 * ended says when it ended instead (the caller's "Ended").
 */
export function expiryWords(expiresAt: number, now: number): string {
  const delta = expiresAt - now;
  const seconds = Math.round(Math.abs(delta) / 1000);
  const amount =
    seconds < 60
      ? `${seconds} ${seconds === 1 ? "second" : "seconds"}`
      : `${Math.round(seconds / 60)} ${Math.round(seconds / 60) === 1 ? "minute" : "minutes"}`;
  if (seconds === 0) return "now";
  return delta > 0 ? `in ${amount}` : `${amount} ago (overdue)`;
}
