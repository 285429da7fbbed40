import { runnerEventTypes } from "@fleet/contracts";
import type { Metadata } from "next";
import { readOperatorSession } from "../../../../features/runners/operator-session.ts";
import { RunnerDetailView } from "../../../../features/runners/runner-detail.tsx";
import type { RunnerEventType } from "../../../../features/runners/status.ts";
import { first, type Search } from "../../../../lib/search.ts";

export const metadata: Metadata = { title: "Runner" };

/** The history's type filter from the URL: known types only, in their usual order. */
function typesOf(value: string | undefined): RunnerEventType[] {
  const chosen = new Set((value ?? "").split(","));
  return runnerEventTypes.filter((type) => chosen.has(type));
}

/** One runner: each table's page, the lease in the review dialog and the history's filter live in the URL. */
export default async function RunnerPage({
  params,
  searchParams,
}: {
  params: Promise<{ runnerId: string }>;
  searchParams: Promise<Search>;
}) {
  const [{ runnerId }, search, session] = await Promise.all([params, searchParams, readOperatorSession()]);
  return (
    <RunnerDetailView
      operator={session.operator}
      accessProblem={session.accessProblem}
      position={{
        runnerId,
        leasesAfter: first(search.leases_after),
        lease: first(search.lease),
        types: typesOf(first(search.types)),
        historyAfter: first(search.history_after),
      }}
    />
  );
}
