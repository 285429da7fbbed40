import { withQuery } from "../../lib/urls.ts";

/** The webhooks page's URL for a workspace; the chosen workspace lives in the URL so a view can be shared. */
export function webhooksHref(workspaceId?: string): string {
  return withQuery("/webhooks", { workspace: workspaceId });
}
