"use client";

import { type Column, CopyButton, type CursorPagerProps, PagedTable, RelativeTime } from "@fleet/ui";
import { EntityName } from "../../components/entity-name.tsx";
import { Link } from "../../components/link.tsx";
import type { RouterOutputs } from "../../lib/trpc.ts";
import { actionWords } from "./action-words.ts";
import { AuditDetails } from "./audit-details.tsx";
import { AuditTarget } from "./audit-target.tsx";
import "./audit-table.css";

export type AuditRow = RouterOutputs["audit"]["listWorkspace"]["items"][number];

/**
 * One row per audited act, newest first: when (relative, the date and zone on hover), who by name, what
 * in words with its target by name and linked (the action's own name beside it, which the filter takes),
 * the facts it recorded as people read them, and the request id that ties it to the API's logs. Names come
 * from the console's per-kind lists (one query a kind, shared by every row), never a fetch per row.
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
      header: "Who",
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
      header: "What",
      rowHeader: true,
      cell: (row) => (
        <span className="audit-what">
          <span className="audit-what__words">
            {actionWords(row.action)} <AuditTarget row={row} me={me} />
          </span>
          <code className="audit-action">{row.action}</code>
        </span>
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
      cell: (row) => (
        <AuditDetails details={row.details} workspaceId={row.workspace_id ?? undefined} me={me} />
      ),
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
