import type { Metadata } from "next";
import { ModelsView } from "../../../features/models/models-view.tsx";
import { readOperatorSession } from "../../../features/runners/operator-session.ts";
import { first, type Search } from "../../../lib/search.ts";

export const metadata: Metadata = { title: "Models" };

/**
 * The provider filter and the page live in the URL. The operator token's claims (never the token) decide
 * whether the page offers the catalogue's edits; the API judges each one.
 */
export default async function ModelsPage({ searchParams }: { searchParams: Promise<Search> }) {
  const [search, session] = await Promise.all([searchParams, readOperatorSession()]);
  const provider = first(search.provider)?.trim();
  return (
    <ModelsView
      operator={session.operator}
      accessProblem={session.accessProblem}
      position={{
        provider: provider && provider.length <= 64 ? provider : undefined,
        startingAfter: first(search.starting_after) || undefined,
      }}
    />
  );
}
