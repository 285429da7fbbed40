"use client";

import { Button, SelectField, TextField } from "@fleet/ui";
import Link from "next/link";
import { useState } from "react";

const KIND = /^[a-z][a-z0-9_.-]{0,63}$/;

export interface ApprovalFilterValues {
  fleetId?: string | undefined;
  kind?: string | undefined;
}

/**
 * The inbox's filters, a fleet and a gate kind. Applying them navigates, so they live in the URL; a kind
 * the API would refuse is refused on the field first.
 */
export function ApprovalFilters({
  values,
  fleets,
  clearHref,
  onApply,
}: {
  values: ApprovalFilterValues;
  /** The workspace's fleets to choose from; a fleet in the URL that is not among them is kept as its id. */
  fleets: { id: string; name: string }[] | undefined;
  clearHref: string | undefined;
  onApply: (values: ApprovalFilterValues) => void;
}) {
  const [kindError, setKindError] = useState<string | null>(null);
  const known = fleets?.some((fleet) => fleet.id === values.fleetId);
  return (
    <form
      className="filters"
      aria-label="Filter gates"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        const form = new FormData(event.currentTarget);
        const fleetId = String(form.get("fleet") ?? "");
        const kind = String(form.get("kind") ?? "").trim();
        const problem =
          kind && !KIND.test(kind)
            ? "A kind is lowercase letters, digits, _ . or -, starting with a letter."
            : null;
        setKindError(problem);
        if (problem) return;
        onApply({ fleetId: fleetId || undefined, kind: kind || undefined });
      }}
    >
      <SelectField
        key={`fleet:${values.fleetId ?? ""}`}
        name="fleet"
        label="Fleet"
        defaultValue={values.fleetId ?? ""}
      >
        <option value="">All fleets</option>
        {values.fleetId && !known ? <option value={values.fleetId}>{values.fleetId}</option> : null}
        {fleets?.map((fleet) => (
          <option key={fleet.id} value={fleet.id}>
            {fleet.name}
          </option>
        ))}
      </SelectField>
      <TextField
        key={`kind:${values.kind ?? ""}`}
        name="kind"
        label="Kind"
        defaultValue={values.kind ?? ""}
        placeholder="deploy, integration_grant"
        autoComplete="off"
        spellCheck={false}
        error={kindError}
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
