/** The overview's URL: only the workspace it shows. */
export function overviewHref(workspaceId?: string): string {
  return workspaceId ? `/overview?workspace=${encodeURIComponent(workspaceId)}` : "/overview";
}
