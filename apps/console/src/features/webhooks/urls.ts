import { withQuery } from "../../lib/urls.ts";

/** The webhooks page's URL for a workspace; the chosen workspace lives in the URL so a view can be shared. */
export function webhooksHref(workspaceId?: string): string {
  return withQuery("/webhooks", { workspace: workspaceId });
}

/** Everything an endpoint's page holds in its URL: the delivery log's filters and page, the delivery open. */
export interface EndpointPosition {
  workspaceId: string | undefined;
  endpointId: string;
  /** The log: one delivery status. */
  status?: string | undefined;
  /** The log: one event type (or ping). */
  type?: string | undefined;
  /** The log: the page's cursor. */
  after?: string | undefined;
  /** The delivery (its event id) open in the inspect dialog. */
  delivery?: string | undefined;
}

/** An endpoint's page: its facts, its actions and its delivery log. */
export function endpointHref(position: EndpointPosition): string {
  return withQuery(`/webhooks/${encodeURIComponent(position.endpointId)}`, {
    workspace: position.workspaceId,
    status: position.status,
    type: position.type,
    after: position.after,
    delivery: position.delivery,
  });
}
