import type { RouterOutputs } from "../../lib/trpc.ts";

export type Endpoint = RouterOutputs["webhookEndpoints"]["list"]["items"][number];
export type EventTypeItem = RouterOutputs["webhookEndpoints"]["listEventTypes"]["items"][number];

/** How an endpoint is named in labels and titles: its URL without the scheme (it has no name of its own). */
export function endpointName(endpoint: Pick<Endpoint, "url">): string {
  return endpoint.url.replace(/^https?:\/\//, "");
}

/**
 * Why the notice endpoint's URL, types and secret are not changed here: they are the approval policy's
 * (docs/decisions/webhooks.md, "The escalation and budget notices"). Null for any other endpoint.
 */
export function managedReason(endpoint: Pick<Endpoint, "managed_by">): string | null {
  return endpoint.managed_by === null
    ? null
    : "The approval policy's escalation URL: change or remove it with PUT …/approval-policy. It signs with the workspace's notice secret.";
}
