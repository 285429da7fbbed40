import type { RouterOutputs } from "../../lib/trpc.ts";

export type Endpoint = RouterOutputs["webhookEndpoints"]["list"]["items"][number];
export type EventTypeItem = RouterOutputs["webhookEndpoints"]["listEventTypes"]["items"][number];

/** How an endpoint is named in labels and titles: its URL without the scheme (it has no name of its own). */
export function endpointName(endpoint: Pick<Endpoint, "url">): string {
  return endpoint.url.replace(/^https?:\/\//, "");
}

/** Why an endpoint is off, in words: the service's reason, or the person's choice. */
export function disabledWords(endpoint: Pick<Endpoint, "enabled" | "disabled_reason">): string | null {
  if (endpoint.enabled) return null;
  if (endpoint.disabled_reason === "gone") return "Disabled by the service: the receiver answered 410 Gone";
  if (endpoint.disabled_reason === "failing") return "Disabled by the service: failing for 5 days";
  return "Disabled";
}
