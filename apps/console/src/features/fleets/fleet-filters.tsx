"use client";

import { fleetStatuses } from "@fleet/contracts/fleets/values";
import { FilterForm, FilterSelect, FilterText } from "../../components/filter-form.tsx";
import { fleetStatusVariants } from "../../lib/fleet-status.ts";
import type { FleetFilter } from "../../lib/urls.ts";

const NAME_MAX = 100;

/** The fleet list's filters: one status, and words the name contains. */
export function FleetFilters({
  values,
  clearHref,
  onApply,
}: {
  values: FleetFilter;
  clearHref: string | undefined;
  onApply: (values: FleetFilter) => void;
}) {
  return (
    <FilterForm
      label="Filter fleets"
      clearHref={clearHref}
      check={(read) => {
        const [status, name] = [read("status"), read("name")];
        if (name.length > NAME_MAX) return { name: `Use at most ${NAME_MAX} characters.` };
        onApply({ status: status || undefined, name: name || undefined });
        return {};
      }}
    >
      {(problems) => (
        <>
          <FilterText
            name="name"
            label="Name"
            value={values.name ?? ""}
            placeholder="Part of a fleet’s name"
            error={problems.name}
          />
          <FilterSelect
            name="status"
            label="Status"
            value={values.status ?? ""}
            anyLabel="Any status"
            choices={fleetStatuses.map((status) => ({
              value: status,
              label: fleetStatusVariants[status].label,
            }))}
          />
        </>
      )}
    </FilterForm>
  );
}
