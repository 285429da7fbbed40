/** How many turns the conversation shows: the newest events, oldest first as in a chat. */
export const TURNS = 10;

/**
 * The events a conversation shows: the newest of the list (newest first, as the API pages it) and the runs
 * in flight, oldest first. Plain, not a component's: the fleet page's server asks for these turns ahead.
 */
export function turnIds(newestFirst: readonly string[], running: Iterable<string> = []): string[] {
  const ids = new Set(newestFirst.slice(0, TURNS));
  for (const eventId of running) ids.add(eventId);
  // Event ids are UUIDv7: their order is their creation order.
  return [...ids].sort().slice(-TURNS);
}

/** What a request said, as a person reads it: a message's text, else the payload as sent. */
export function requestText(requestJson: string | undefined): string | undefined {
  if (requestJson === undefined) return undefined;
  try {
    const body = JSON.parse(requestJson) as unknown;
    if (
      typeof body === "object" &&
      body !== null &&
      typeof (body as { message?: unknown }).message === "string"
    )
      return (body as { message: string }).message;
  } catch {
    // shown as it came
  }
  return requestJson;
}
