"use client";

import { type Column, CopyButton, type CursorPagerProps, PagedTable, RelativeTime } from "@fleet/ui";
import { EntityName } from "../../components/entity-name.tsx";
import { Link } from "../../components/link.tsx";
import type { RouterOutputs } from "../../lib/trpc.ts";
import "./audit-table.css";

export type AuditRow = RouterOutputs["audit"]["listWorkspace"]["items"][number];

/** A detail's value in one line: strings as they are, anything else as compact JSON. */
function valueText(value: unknown): string {
  return typeof value === "string" ? value : JSON.stringify(value);
}

/**
 * One row per audited act, newest first: when, who, what, on what, the few facts it recorded, and the
 * request id that ties it to the API's logs.
 */
export function AuditTable({
  rows,
  caption,
  me,
  workspaceNames,
  pager,
  busy,
}: {
  rows: AuditRow[];
  caption: string;
  /** The signed-in person's user id, shown as "(you)" beside their name. */
  me: string | undefined;
  /** Set for the tenant-wide log, which names each row's workspace. */
  workspaceNames?: Map<string, string> | undefined;
  pager?: CursorPagerProps | undefined;
  busy: boolean;
}) {
  const columns: Column<AuditRow>[] = [
    { id: "at", header: "When", width: "time", cell: (row) => <RelativeTime value={row.at} /> },
    {
      id: "actor",
      header: "Actor",
      cell: (row) => (
        <EntityName
          className="audit-actor"
          principal={row.actor}
          me={me}
          workspaceId={row.workspace_id ?? undefined}
        />
      ),
    },
    {
      id: "action",
      header: "Action",
      rowHeader: true,
      cell: (row) => <code className="audit-action">{row.action}</code>,
    },
    {
      id: "target",
      header: "Target",
      cell: (row) => (
        <EntityName
          className="audit-target"
          principal={row.target}
          me={me}
          workspaceId={row.workspace_id ?? undefined}
        />
      ),
    },
    ...(workspaceNames
      ? [
          {
            id: "workspace",
            header: "Workspace",
            cell: (row: AuditRow) =>
              row.workspace_id === null ? (
                <span className="muted">Tenant</span>
              ) : (
                (workspaceNames.get(row.workspace_id) ?? <code>{row.workspace_id}</code>)
              ),
          },
        ]
      : []),
    {
      id: "details",
      header: "Details",
      cell: (row) => {
        const entries = Object.entries(row.details);
        return entries.length === 0 ? (
          <span className="muted">—</span>
        ) : (
          <dl className="audit-details">
            {entries.map(([key, value]) => (
              <div key={key}>
                <dt>{key}</dt>
                <dd>{valueText(value)}</dd>
              </div>
            ))}
          </dl>
        );
      },
    },
    {
      id: "request",
      header: "Request",
      headerHidden: true,
      width: "actions",
      align: "end",
      cell: (row) => <CopyButton value={row.request_id} label={`Copy request id ${row.request_id}`} />,
    },
  ];
  return (
    <PagedTable
      caption={caption}
      columns={columns}
      rows={rows}
      rowKey={(row) => row.id}
      rowData={(row) => ({ "data-action": row.action, "data-actor": row.actor })}
      busy={busy}
      pager={pager}
      link={Link}
    />
  );
}
