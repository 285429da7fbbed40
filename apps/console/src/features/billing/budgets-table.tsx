"use client";

import { Badge, type Column, PagedTable } from "@fleet/ui";
import { Link } from "../../components/link.tsx";
import type { RouterOutputs } from "../../lib/trpc.ts";
import { billingHref, fleetHref } from "../../lib/urls.ts";
import { formatNanos, usedPercent } from "./spend.ts";
import "./budgets-table.css";

type FleetBudget = RouterOutputs["billing"]["get"]["fleets"][number];

/** A meter of the budget spent, with the figures in words beside it. */
function Used({ fleet }: { fleet: FleetBudget }) {
  const percent = usedPercent(fleet.period_spend_nanos, fleet.period_budget_nanos);
  if (percent === null) return <span>{formatNanos(fleet.period_spend_nanos)} · no budget</span>;
  const budget = fleet.period_budget_nanos ?? 0;
  return (
    <span className="budget-used">
      <meter
        className="budget-used__meter"
        min={0}
        max={Math.max(1, budget)}
        low={Math.max(1, budget) * 0.8}
        high={Math.max(1, budget) * 0.99}
        optimum={0}
        value={Math.min(fleet.period_spend_nanos, Math.max(1, budget))}
        aria-label={`${fleet.name}: ${percent}% of its budget spent`}
      />
      <span>
        {formatNanos(fleet.period_spend_nanos)} of {formatNanos(budget)} ({percent}%)
      </span>
    </span>
  );
}

/** Each fleet's budget this period, what it spent, its cap per run and its alert percents. */
export function BudgetsTable({
  fleets,
  narrowedTo,
}: {
  fleets: FleetBudget[];
  narrowedTo?: string | undefined;
}) {
  const columns: Column<FleetBudget>[] = [
    {
      id: "fleet",
      header: "Fleet",
      rowHeader: true,
      cell: (fleet) => (
        <Link href={fleetHref({ workspaceId: fleet.workspace_id, fleetId: fleet.fleet_id, tab: "events" })}>
          {fleet.name}
        </Link>
      ),
    },
    {
      id: "state",
      header: "State",
      width: "status",
      cell: (fleet) =>
        fleet.over_budget ? (
          <Badge tone="danger">Over budget</Badge>
        ) : (
          <Badge tone="success">Within budget</Badge>
        ),
    },
    { id: "used", header: "Spent this period", cell: (fleet) => <Used fleet={fleet} /> },
    {
      id: "run",
      header: "Cap per run",
      cell: (fleet) => (fleet.run_budget_nanos === null ? "None" : formatNanos(fleet.run_budget_nanos)),
    },
    {
      id: "alerts",
      header: "Alerts at",
      cell: (fleet) =>
        fleet.period_budget_nanos === null || fleet.alert_percents.length === 0
          ? "—"
          : fleet.alert_percents.map((p) => `${p}%`).join(", "),
    },
    {
      id: "charges",
      header: "Charges",
      headerHidden: true,
      cell: (fleet) =>
        narrowedTo === fleet.fleet_id ? (
          <span className="muted">Shown below</span>
        ) : (
          <Link
            href={billingHref({ fleetId: fleet.fleet_id })}
            aria-label={`Show the charges of ${fleet.name}`}
          >
            Charges
          </Link>
        ),
    },
  ];
  return (
    <PagedTable
      caption="Fleet budgets this period"
      columns={columns}
      rows={fleets}
      rowKey={(fleet) => fleet.fleet_id}
      rowData={(fleet) => ({ "data-over-budget": String(fleet.over_budget) })}
      link={Link}
    />
  );
}
