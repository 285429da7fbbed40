/** The connectors page's URL for a workspace; the chosen workspace lives in the URL so a view can be shared. */
export function connectorsHref(workspaceId?: string): string {
  return workspaceId ? `/connectors?${new URLSearchParams({ workspace: workspaceId })}` : "/connectors";
}
