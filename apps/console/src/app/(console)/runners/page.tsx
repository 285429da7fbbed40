import { runnerLiveness, runnerStatuses } from "@fleet/contracts";
import { listRunners } from "@fleet/contracts/runners/list-runners";
import type { Metadata } from "next";
import { readOperatorSession } from "../../../features/runners/operator-session.ts";
import { RunnersView } from "../../../features/runners/runners-view.tsx";
import type { Liveness, RunnerStatus } from "../../../features/runners/status.ts";
import { first, type Search } from "../../../lib/search.ts";

export const metadata: Metadata = { title: "Runners" };

function oneOf<T extends string>(values: readonly T[], value: string | undefined): T | undefined {
  return (values as readonly string[]).includes(value ?? "") ? (value as T) : undefined;
}

/**
 * The filter (state, liveness, degraded) and the page live in the URL. A value the page does not know
 * falls back to none; a cursor is the API's to judge.
 */
export default async function RunnersPage({ searchParams }: { searchParams: Promise<Search> }) {
  const [search, session] = await Promise.all([searchParams, readOperatorSession()]);
  const limit = listRunners.query.limit.safeParse(first(search.limit));
  return (
    <RunnersView
      operator={session.operator}
      accessProblem={session.accessProblem}
      position={{
        status: oneOf<RunnerStatus>(runnerStatuses, first(search.status)),
        liveness: oneOf<Liveness>(runnerLiveness, first(search.liveness)),
        degraded: first(search.degraded) === "true" || undefined,
        startingAfter: first(search.starting_after),
        after: first(search.after),
        limit: first(search.limit) !== undefined && limit.success ? limit.data : undefined,
      }}
    />
  );
}
