import { withQuery } from "../../lib/urls.ts";

/** The secrets page's URL for a workspace; the chosen workspace lives in the URL so a view can be shared. */
export function secretsHref(workspaceId?: string): string {
  return withQuery("/secrets", { workspace: workspaceId });
}
