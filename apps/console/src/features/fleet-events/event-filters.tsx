"use client";

import { resolveSince } from "@fleet/contracts";
import { Button, TextField } from "@fleet/ui";
import Link from "next/link";
import { useState } from "react";

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

/**
 * The events list's filters. Applying them navigates, so they live in the URL; the form refuses what the
 * API would, with the reason on the field, before sending anything.
 */
export function EventFilters({
  values,
  clearHref,
  onApply,
}: {
  values: EventFilterValues;
  clearHref: string | undefined;
  onApply: (values: EventFilterValues) => void;
}) {
  const [errors, setErrors] = useState<{ actor?: string | null; since?: string | null }>({});
  return (
    <form
      className="filters"
      aria-label="Filter events"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        const form = new FormData(event.currentTarget);
        const actor = String(form.get("actor") ?? "").trim();
        const since = String(form.get("since") ?? "").trim();
        const next = {
          actor: actor ? actorProblem(actor) : null,
          since: since ? sinceProblem(since) : null,
        };
        setErrors(next);
        if (next.actor || next.since) return;
        onApply({ actor: actor || undefined, since: since || undefined });
      }}
    >
      <TextField
        // Remounts with the URL's values when they change (Back, Clear).
        key={`actor:${values.actor ?? ""}`}
        name="actor"
        label="Actor"
        defaultValue={values.actor ?? ""}
        placeholder="user:* or api_key:<id>"
        autoComplete="off"
        spellCheck={false}
        error={errors.actor}
      />
      <TextField
        key={`since:${values.since ?? ""}`}
        name="since"
        label="Since"
        defaultValue={values.since ?? ""}
        placeholder="15m, 2h, 7d"
        autoComplete="off"
        spellCheck={false}
        error={errors.since}
      />
      <div className="filters__actions">
        <Button type="submit" size="sm">
          Apply filters
        </Button>
        {clearHref ? (
          <Link className="ui-button ui-button--ghost ui-button--sm" href={clearHref}>
            Clear filters
          </Link>
        ) : null}
      </div>
    </form>
  );
}
