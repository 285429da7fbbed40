/** The secrets page's URL for a workspace; the chosen workspace lives in the URL so a view can be shared. */
export function secretsHref(workspaceId?: string): string {
  return workspaceId ? `/secrets?${new URLSearchParams({ workspace: workspaceId })}` : "/secrets";
}
