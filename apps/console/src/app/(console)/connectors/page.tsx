import type { Metadata } from "next";
import { ConnectorsView } from "../../../features/connectors/connectors-view.tsx";

export const metadata: Metadata = { title: "Connectors" };

type Search = Record<string, string | string[] | undefined>;

function first(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/**
 * The chosen workspace lives in the URL (`?workspace=<id>`); the vendor's redirect back after a consent
 * adds `connected=<provider>` or `declined=<provider>`, said once on the page.
 */
export default async function ConnectorsPage({ searchParams }: { searchParams: Promise<Search> }) {
  const search = await searchParams;
  const connected = first(search.connected);
  const declined = first(search.declined);
  return (
    <ConnectorsView
      workspaceId={first(search.workspace) || undefined}
      returned={{ ...(connected ? { connected } : {}), ...(declined ? { declined } : {}) }}
    />
  );
}
