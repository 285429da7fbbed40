/**
 * A console URL from a path and its query, leaving empty values out so plain URLs stay plain: every page
 * that keeps its position (workspace, filters, page) in the URL builds it here.
 */
export function withQuery(path: string, query: Record<string, string | undefined>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value) params.set(key, value);
  const text = params.toString();
  return text ? `${path}?${text}` : path;
}
