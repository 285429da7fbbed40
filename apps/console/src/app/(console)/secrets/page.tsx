import type { Metadata } from "next";
import { SecretsView } from "../../../features/secrets/secrets-view.tsx";

export const metadata: Metadata = { title: "Secrets" };

type Search = Record<string, string | string[] | undefined>;

function first(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/**
 * The chosen workspace lives in the URL (`?workspace=<id>`), so a view can be shared and reloaded. The id
 * is the API's to judge: one it refuses shows its problem, never another workspace's secrets.
 */
export default async function SecretsPage({ searchParams }: { searchParams: Promise<Search> }) {
  const workspace = first((await searchParams).workspace);
  return <SecretsView workspaceId={workspace || undefined} />;
}
