"use client";

import { type Column, PagedTable, type PagedTableProps, RelativeTime, StatusBadge } from "@fleet/ui";
import { Link } from "../../components/link.tsx";
import { type FleetItem, fleetStatusVariants } from "../../lib/fleet-status.ts";
import { formatCount } from "../../lib/format.ts";
import { fleetHref } from "../../lib/urls.ts";
import type { FleetActionHandlers } from "./fleet-row-actions.tsx";
import { FleetRowActions } from "./fleet-row-actions.tsx";
import "../../styles/inline.css";
import "../../styles/table-cells.css";

export interface FleetsTableProps {
  fleets: FleetItem[];
  workspace: { id: string; name: string };
  /** Fleets whose status change is on its way. */
  pendingIds: ReadonlySet<string>;
  handlers: FleetActionHandlers;
  busy: boolean;
  pager: PagedTableProps<FleetItem>["pager"];
}

export function FleetsTable({ fleets, workspace, pendingIds, handlers, busy, pager }: FleetsTableProps) {
  const columns: Column<FleetItem>[] = [
    {
      id: "name",
      header: "Name",
      rowHeader: true,
      cell: (fleet) => (
        <Link
          className="fleet-link"
          href={fleetHref({ workspaceId: workspace.id, fleetId: fleet.id, tab: "events" })}
        >
          {fleet.name}
        </Link>
      ),
    },
    {
      id: "status",
      header: "Status",
      width: "status",
      cell: (fleet) => (
        <StatusBadge
          status={fleet.status}
          variants={fleetStatusVariants}
          pending={pendingIds.has(fleet.id)}
        />
      ),
    },
    {
      id: "events",
      header: "Events processed",
      width: "number",
      align: "end",
      cell: (fleet) => <span className="numeric">{formatCount(fleet.events_processed)}</span>,
    },
    {
      id: "created",
      header: "Created",
      width: "time",
      cell: (fleet) => <RelativeTime value={fleet.created_at} />,
    },
    {
      id: "updated",
      header: "Updated",
      width: "time",
      cell: (fleet) => <RelativeTime value={fleet.updated_at} />,
    },
    {
      id: "actions",
      header: "Actions",
      headerHidden: true,
      width: "wide-actions",
      align: "end",
      cell: (fleet) => (
        <FleetRowActions
          fleet={{ id: fleet.id, name: fleet.name, workspaceId: workspace.id }}
          status={fleet.status}
          handlers={handlers}
        />
      ),
    },
  ];
  return (
    <PagedTable
      caption={`Fleets in the workspace ${workspace.name}, newest first`}
      columns={columns}
      rows={fleets}
      rowKey={(fleet) => fleet.id}
      rowData={(fleet) => ({ "data-fleet-id": fleet.id, "data-status": fleet.status })}
      busy={busy}
      pager={pager}
    />
  );
}
