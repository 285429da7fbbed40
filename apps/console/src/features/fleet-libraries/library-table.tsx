"use client";

import { type Column, PagedTable, type PagedTableProps, RelativeTime, StatusBadge } from "@fleet/ui";
import { Link } from "../../components/link.tsx";
import { type LibraryItem, visibilityVariants } from "../../lib/library-entries.ts";
import { entryHref } from "../../lib/urls.ts";
import "../../styles/table-cells.css";
import "./library-table.css";

/** Counts of what an entry needs, in words ("2 credentials · 1 tool"); "Nothing" when it needs nothing. */
export function requirementSummary(item: Pick<LibraryItem, "requirements">): string {
  const { credentials, tools, network_hosts: hosts, runner_labels: labels } = item.requirements;
  const parts = [
    [credentials.length, "credential", "credentials"],
    [tools.length, "tool", "tools"],
    [hosts.length, "host", "hosts"],
    [labels.length, "runner label", "runner labels"],
  ] as const;
  const said = parts
    .filter(([count]) => count > 0)
    .map(([count, one, many]) => `${count} ${count === 1 ? one : many}`);
  return said.length === 0 ? "Nothing" : said.join(" · ");
}

export function LibraryTable({
  entries,
  workspace,
  busy,
  pager,
}: {
  entries: LibraryItem[];
  workspace: { id: string; name: string };
  busy: boolean;
  pager: PagedTableProps<LibraryItem>["pager"];
}) {
  const columns: Column<LibraryItem>[] = [
    {
      id: "name",
      header: "Name",
      rowHeader: true,
      cell: (entry) => (
        <span className="entry-cell">
          <Link className="fleet-link" href={entryHref(workspace.id, entry.id)}>
            {entry.name}
          </Link>
          {entry.description ? <span className="entry-cell__description">{entry.description}</span> : null}
        </span>
      ),
    },
    {
      id: "visibility",
      header: "Source",
      width: "status",
      cell: (entry) => <StatusBadge status={entry.visibility} variants={visibilityVariants} />,
    },
    {
      id: "requirements",
      header: "Needs",
      cell: (entry) => (
        <span className="entry-needs">
          <span>{requirementSummary(entry)}</span>
          {entry.requirements.credentials.length > 0 ? (
            <span className="entry-needs__names">{entry.requirements.credentials.join(", ")}</span>
          ) : null}
        </span>
      ),
    },
    {
      id: "created",
      header: "Added",
      width: "time",
      cell: (entry) => <RelativeTime value={entry.created_at} />,
    },
  ];
  return (
    <PagedTable
      caption={`Fleet definitions the workspace ${workspace.name} can install, newest first`}
      columns={columns}
      rows={entries}
      rowKey={(entry) => entry.id}
      rowData={(entry) => ({ "data-library-id": entry.id, "data-visibility": entry.visibility })}
      busy={busy}
      pager={pager}
    />
  );
}
