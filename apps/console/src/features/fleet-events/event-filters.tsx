"use client";

import { resolveSince } from "@fleet/contracts";
import { FilterForm, FilterText, noProblems } from "../../components/filter-form.tsx";

export interface EventFilterValues {
  actor?: string | undefined;
  since?: string | undefined;
}

function actorProblem(actor: string): string | null {
  return actor.slice(0, -1).includes("*") ? "Use * only at the end, for a prefix (user:*)." : null;
}

function sinceProblem(since: string): string | null {
  return resolveSince(since, Date.now()) === null
    ? "Use a duration (15m, 2h, 7d), an RFC 3339 time or epoch milliseconds."
    : null;
}

/** The events list's filters: an actor (or a prefix of one) and how far back. */
export function EventFilters({
  values,
  clearHref,
  onApply,
}: {
  values: EventFilterValues;
  clearHref: string | undefined;
  onApply: (values: EventFilterValues) => void;
}) {
  return (
    <FilterForm
      label="Filter events"
      clearHref={clearHref}
      check={(read) => {
        const [actor, since] = [read("actor"), read("since")];
        const problems = {
          actor: actor ? actorProblem(actor) : null,
          since: since ? sinceProblem(since) : null,
        };
        if (noProblems(problems)) onApply({ actor: actor || undefined, since: since || undefined });
        return problems;
      }}
    >
      {(problems) => (
        <>
          <FilterText
            name="actor"
            label="Actor"
            value={values.actor ?? ""}
            placeholder="user:* or api_key:<id>"
            error={problems.actor}
          />
          <FilterText
            name="since"
            label="Since"
            value={values.since ?? ""}
            placeholder="15m, 2h, 7d"
            error={problems.since}
          />
        </>
      )}
    </FilterForm>
  );
}
