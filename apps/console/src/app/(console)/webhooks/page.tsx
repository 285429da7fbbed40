import type { Metadata } from "next";
import { WebhooksView } from "../../../features/webhooks/webhooks-view.tsx";

export const metadata: Metadata = { title: "Webhooks" };

type Search = Record<string, string | string[] | undefined>;

function first(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/**
 * The chosen workspace lives in the URL (`?workspace=<id>`), as on the Secrets page. The id is the API's to
 * judge: one it refuses shows its problem, never another workspace's endpoints.
 */
export default async function WebhooksPage({ searchParams }: { searchParams: Promise<Search> }) {
  const workspace = first((await searchParams).workspace);
  return <WebhooksView workspaceId={workspace || undefined} />;
}
