"use client";

import { resolveSince } from "@fleet/contracts";
import { Button, TextField } from "@fleet/ui";
import Link from "next/link";
import { useState } from "react";

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
  const [errors, setErrors] = useState<Partial<Record<keyof AuditFilterValues, string | null>>>({});
  return (
    <form
      className="filters"
      aria-label="Filter the audit log"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        const form = new FormData(event.currentTarget);
        const text = (name: string) => String(form.get(name) ?? "").trim();
        const [actor, action, sinceText, untilText] = [
          text("actor"),
          text("action"),
          text("since"),
          text("until"),
        ];
        const now = Date.now();
        const since = sinceText ? resolveSince(sinceText, now) : undefined;
        const until = untilText ? resolveSince(untilText, now) : undefined;
        const next = {
          actor: actor.length > 200 ? "At most 200 characters." : null,
          action:
            action && !ACTION.test(action)
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
        setErrors(next);
        if (Object.values(next).some(Boolean)) return;
        onApply({
          actor: actor || undefined,
          action: action || undefined,
          since: since ?? undefined,
          until: until ?? undefined,
        });
      }}
    >
      <TextField
        key={`actor:${values.actor ?? ""}`}
        name="actor"
        label="Actor"
        defaultValue={values.actor ?? ""}
        placeholder="user:<id>"
        autoComplete="off"
        spellCheck={false}
        error={errors.actor}
      />
      <TextField
        key={`action:${values.action ?? ""}`}
        name="action"
        label="Action"
        defaultValue={values.action ?? ""}
        placeholder="approval.*"
        autoComplete="off"
        spellCheck={false}
        error={errors.action}
      />
      <TextField
        key={`since:${values.since ?? ""}`}
        name="since"
        label="Since"
        defaultValue={shown(values.since)}
        placeholder="7d"
        autoComplete="off"
        spellCheck={false}
        error={errors.since}
      />
      <TextField
        key={`until:${values.until ?? ""}`}
        name="until"
        label="Until"
        defaultValue={shown(values.until)}
        placeholder="2026-01-31T18:00Z"
        autoComplete="off"
        spellCheck={false}
        error={errors.until}
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
