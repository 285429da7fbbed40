import type { Metadata } from "next";
import { AuditView } from "../../../features/audit/audit-view.tsx";
import { epochOf } from "../../../features/audit/urls.ts";
import { first, type Search } from "../../../lib/search.ts";

export const metadata: Metadata = { title: "Audit log" };

/** The audit log. Its workspace or tenant scope, filters and page live in the URL. */
export default async function AuditPage({ searchParams }: { searchParams: Promise<Search> }) {
  const search = await searchParams;
  return (
    <AuditView
      position={{
        workspaceId: first(search.workspace),
        scope: first(search.scope) === "tenant" ? "tenant" : "workspace",
        actor: first(search.actor),
        action: first(search.action),
        since: epochOf(first(search.since)),
        until: epochOf(first(search.until)),
        after: first(search.starting_after),
      }}
    />
  );
}
