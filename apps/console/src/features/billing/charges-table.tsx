"use client";

import { type Column, CopyButton, type CursorPagerProps, PagedTable, RelativeTime } from "@fleet/ui";
import { Link } from "../../components/link.tsx";
import { formatCount } from "../../lib/format.ts";
import type { RouterOutputs } from "../../lib/trpc.ts";
import { fleetHref } from "../../lib/urls.ts";
import { formatNanos } from "./spend.ts";
import "./charges-table.css";

export type ChargeRow = RouterOutputs["billing"]["listCharges"]["items"][number];

const count = (value: number | null) => (value === null ? "—" : formatCount(value));

function Tokens({ row }: { row: ChargeRow }) {
  if (row.input_tokens === null && row.output_tokens === null && row.cached_tokens === null) {
    return <span>{count(row.tokens)}</span>;
  }
  return (
    <span className="charge-tokens">
      {count(row.input_tokens)} in · {count(row.cached_tokens)} cached · {count(row.output_tokens)} out
    </span>
  );
}

function Price({ row }: { row: ChargeRow }) {
  if (row.price_source === "reported") return <span className="muted">Runner's cost</span>;
  return (
    <span className="charge-price">
      {formatNanos(row.input_nanos_per_mtok ?? 0)} / {formatNanos(row.cached_input_nanos_per_mtok ?? 0)} /{" "}
      {formatNanos(row.output_nanos_per_mtok ?? 0)} per Mtok
    </span>
  );
}

/** One charge per fleet event, newest first: when, which fleet, the model and tokens, the price, the cost. */
export function ChargesTable({
  rows,
  fleetNames,
  pager,
  busy,
}: {
  rows: ChargeRow[];
  fleetNames: ReadonlyMap<string, string>;
  pager?: CursorPagerProps | undefined;
  busy: boolean;
}) {
  const columns: Column<ChargeRow>[] = [
    { id: "at", header: "When", width: "time", cell: (row) => <RelativeTime value={row.created_at} /> },
    {
      id: "fleet",
      header: "Fleet",
      rowHeader: true,
      cell: (row) => {
        const name = fleetNames.get(row.fleet_id);
        return name === undefined ? (
          <span className="muted">Deleted fleet</span>
        ) : (
          <Link
            href={fleetHref({
              workspaceId: row.workspace_id,
              fleetId: row.fleet_id,
              tab: "events",
              event: row.event_id,
            })}
          >
            {name}
          </Link>
        );
      },
    },
    {
      id: "model",
      header: "Model",
      cell: (row) =>
        row.model === null ? (
          <span className="muted">—</span>
        ) : (
          <code>
            {row.provider ? `${row.provider}/` : ""}
            {row.model}
          </code>
        ),
    },
    { id: "tokens", header: "Tokens", cell: (row) => <Tokens row={row} /> },
    { id: "price", header: "Price (input / cached / output)", cell: (row) => <Price row={row} /> },
    { id: "cost", header: "Cost", width: "number", align: "end", cell: (row) => formatNanos(row.cost_nanos) },
    {
      id: "event",
      header: "Event",
      cell: (row) => (
        <span className="charge-event">
          <code>{row.event_id.slice(-8)}</code>
          <CopyButton value={row.event_id} label={`Copy event id ${row.event_id}`} />
        </span>
      ),
    },
  ];
  return (
    <PagedTable
      caption="Charges, newest first: one per fleet event a runner reported"
      columns={columns}
      rows={rows}
      rowKey={(row) => row.charge_id}
      rowData={(row) => ({ "data-price-source": row.price_source, "data-cost": String(row.cost_nanos) })}
      busy={busy}
      pager={pager}
      link={Link}
    />
  );
}
