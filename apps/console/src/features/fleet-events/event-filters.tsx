"use client";

import { fleetEventStatuses, fleetEventTypes, resolveSince } from "@fleet/contracts/fleet-events/values";
import { FilterForm, FilterSelect, FilterText, noProblems } from "../../components/filter-form.tsx";
import { eventStatusVariants, eventTypeLabels } from "./event-labels.ts";

export interface EventFilterValues {
  actor?: string | undefined;
  status?: string | undefined;
  type?: string | undefined;
  since?: string | undefined;
  until?: string | undefined;
}

const TIME_FORMS = "Use a duration (15m, 2h, 7d), an RFC 3339 time or epoch milliseconds.";

function actorProblem(actor: string): string | null {
  return actor.slice(0, -1).includes("*") ? "Use * only at the end, for a prefix (user:*)." : null;
}

function timeProblem(text: string): string | null {
  return text.length > 64 || resolveSince(text, Date.now()) === null ? TIME_FORMS : null;
}

const statusChoices = fleetEventStatuses.map((status) => ({
  value: status,
  label: eventStatusVariants[status].label,
}));
const typeChoices = fleetEventTypes.map((type) => ({ value: type, label: eventTypeLabels[type] }));

/** The events list's filters: an actor (or a prefix of one), a status, a type, and a time window. */
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
        const [actor, status, type, since, until] = ["actor", "status", "type", "since", "until"].map(read);
        const now = Date.now();
        const from = since ? resolveSince(since, now) : null;
        const to = until ? resolveSince(until, now) : null;
        const problems = {
          actor: actor ? actorProblem(actor) : null,
          since: since ? timeProblem(since) : null,
          until: until
            ? (timeProblem(until) ??
              (from !== null && to !== null && from > to ? "Until must not be before since." : null))
            : null,
        };
        if (noProblems(problems))
          onApply({
            actor: actor || undefined,
            status: status || undefined,
            type: type || undefined,
            since: since || undefined,
            until: until || undefined,
          });
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
          <FilterSelect
            name="status"
            label="Status"
            value={values.status ?? ""}
            anyLabel="Any status"
            choices={statusChoices}
          />
          <FilterSelect
            name="type"
            label="Type"
            value={values.type ?? ""}
            anyLabel="Any type"
            choices={typeChoices}
          />
          <FilterText
            name="since"
            label="Since"
            value={values.since ?? ""}
            placeholder="15m, 2h, 7d"
            error={problems.since}
          />
          <FilterText
            name="until"
            label="Until"
            value={values.until ?? ""}
            placeholder="5m, or a time"
            error={problems.until}
          />
        </>
      )}
    </FilterForm>
  );
}
