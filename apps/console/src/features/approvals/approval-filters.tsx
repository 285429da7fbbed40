"use client";

import { SelectField } from "@fleet/ui";
import { FilterForm, FilterText } from "../../components/filter-form.tsx";

const KIND = /^[a-z][a-z0-9_.-]{0,63}$/;

export interface ApprovalFilterValues {
  fleetId?: string | undefined;
  kind?: string | undefined;
}

/** The inbox's filters: a fleet and a gate kind. */
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
  const known = fleets?.some((fleet) => fleet.id === values.fleetId);
  return (
    <FilterForm
      label="Filter gates"
      clearHref={clearHref}
      check={(read) => {
        const [fleetId, kind] = [read("fleet"), read("kind")];
        if (kind && !KIND.test(kind))
          return { kind: "A kind is lowercase letters, digits, _ . or -, starting with a letter." };
        onApply({ fleetId: fleetId || undefined, kind: kind || undefined });
        return {};
      }}
    >
      {(problems) => (
        <>
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
          <FilterText
            name="kind"
            label="Kind"
            value={values.kind ?? ""}
            placeholder="deploy, integration_grant"
            error={problems.kind}
          />
        </>
      )}
    </FilterForm>
  );
}
