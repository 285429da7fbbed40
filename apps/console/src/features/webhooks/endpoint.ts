import type { RouterOutputs } from "../../lib/trpc.ts";

export type Endpoint = RouterOutputs["webhookEndpoints"]["list"]["items"][number];
export type EventTypeItem = RouterOutputs["webhookEndpoints"]["listEventTypes"]["items"][number];

/** How an endpoint is named in labels and titles: its URL without the scheme (it has no name of its own). */
export function endpointName(endpoint: Pick<Endpoint, "url">): string {
  return endpoint.url.replace(/^https?:\/\//, "");
}
