"use client";

import { resolveSince } from "@fleet/contracts/fleet-events/values";
import { FilterForm, FilterText, noProblems } from "../../components/filter-form.tsx";

export interface AuditFilterValues {
  actor?: string | undefined;
  action?: string | undefined;
  since?: number | undefined;
  until?: number | undefined;
}

const ACTION = /^[a-z_.]+\*?$/;
const TIME_HINT = "A duration back from now (15m, 2h, 7d), an RFC 3339 time or epoch milliseconds.";

/** A time filter as the field shows it: the URL holds epoch ms, the person reads RFC 3339 in UTC. */
function shown(ms: number | undefined): string {
  return ms === undefined ? "" : new Date(ms).toISOString();
}

/**
 * The audit log's filters. A relative time ("2h") is resolved once, when applied, so the URL (and the
 * cursor bound to it) names a fixed window that reads the same when shared.
 */
export function AuditFilters({
  values,
  clearHref,
  onApply,
}: {
  values: AuditFilterValues;
  clearHref: string | undefined;
  onApply: (values: AuditFilterValues) => void;
}) {
  return (
    <FilterForm
      label="Filter the audit log"
      clearHref={clearHref}
      check={(read) => {
        const [actor, action, sinceText, untilText] = [
          read("actor"),
          read("action"),
          read("since"),
          read("until"),
        ];
        const now = Date.now();
        const since = sinceText ? resolveSince(sinceText, now) : undefined;
        const until = untilText ? resolveSince(untilText, now) : undefined;
        const problems = {
          actor: actor.length > 200 ? "At most 200 characters." : null,
          action:
            action.length > 100
              ? "At most 100 characters."
              : action && !ACTION.test(action)
                ? "An action name (approval.approve), or a prefix ending in * (approval.*)."
                : null,
          since: since === null ? TIME_HINT : null,
          until:
            until === null
              ? TIME_HINT
              : since != null && until !== undefined && since > until
                ? "Until must not be before Since."
                : null,
        };
        if (noProblems(problems))
          onApply({
            actor: actor || undefined,
            action: action || undefined,
            since: since ?? undefined,
            until: until ?? undefined,
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
            placeholder="user:<id>"
            error={problems.actor}
          />
          <FilterText
            name="action"
            label="Action"
            value={values.action ?? ""}
            placeholder="approval.*"
            error={problems.action}
          />
          <FilterText
            name="since"
            label="Since"
            value={shown(values.since)}
            placeholder="7d"
            error={problems.since}
          />
          <FilterText
            name="until"
            label="Until"
            value={shown(values.until)}
            placeholder="2026-01-31T18:00Z"
            error={problems.until}
          />
        </>
      )}
    </FilterForm>
  );
}
