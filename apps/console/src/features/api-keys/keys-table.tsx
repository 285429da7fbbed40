"use client";

import type { ApiKeyItem } from "@fleet/contracts";
import { Badge, Button, type Column, PagedTable, type PagedTableProps, RelativeTime } from "@fleet/ui";
import { Link } from "../../components/link.tsx";
import { keySort, type ListPosition } from "./urls.ts";
import "../../styles/table-cells.css";
import "./keys-table.css";

export interface KeysTableProps {
  keys: ApiKeyItem[];
  position: ListPosition;
  onRevoke: (key: ApiKeyItem) => void;
  onDelete: (key: ApiKeyItem) => void;
  /** A newer page is loading: the rows shown are the previous page's. */
  busy: boolean;
  pager: PagedTableProps<ApiKeyItem>["pager"];
}

/** One row per key: never the key itself, which only the create answer carries. */
export function KeysTable({ keys, position, onRevoke, onDelete, busy, pager }: KeysTableProps) {
  const columns: Column<ApiKeyItem>[] = [
    {
      id: "name",
      header: "Name",
      rowHeader: true,
      sort: keySort("key_name", position),
      cell: (key) => (
        <span className="key-cell">
          <span className="key-name">{key.key_name}</span>
          {key.description ? <span className="key-description">{key.description}</span> : null}
          {key.key_prefix ? (
            <span className="key-prefix">
              <span className="ui-visually-hidden">Key begins </span>
              <code>{key.key_prefix}…</code>
            </span>
          ) : null}
        </span>
      ),
    },
    {
      id: "scopes",
      header: "Scopes",
      cell: (key) =>
        key.scopes === null ? (
          <span className="muted">All of the creator's</span>
        ) : (
          <span className="key-scopes">{key.scopes.join(", ")}</span>
        ),
    },
    {
      id: "status",
      header: "Status",
      width: "status",
      // The revocation's time sits under its badge: a column of its own, empty on every active key, pushed
      // Revoke and Delete out of the card at 1440 (issue 30 §6).
      cell: (key) =>
        !key.active ? (
          <span className="key-status">
            <Badge tone="neutral">Revoked</Badge>
            {key.revoked_at === null ? null : <RelativeTime value={key.revoked_at} />}
          </span>
        ) : key.expires_at !== null && key.expires_at <= Date.now() ? (
          <Badge tone="warning">Expired</Badge>
        ) : (
          <Badge tone="success">Active</Badge>
        ),
    },
    {
      id: "created",
      header: "Created",
      width: "time",
      sort: keySort("created_at", position),
      cell: (key) => <RelativeTime value={key.created_at} />,
    },
    {
      id: "last-used",
      header: "Last used",
      width: "time",
      cell: (key) =>
        key.last_used_at === null ? (
          <span className="muted">never</span>
        ) : (
          <RelativeTime value={key.last_used_at} />
        ),
    },
    {
      id: "expires",
      header: "Expires",
      width: "time",
      cell: (key) =>
        key.expires_at === null ? (
          <span className="muted">never</span>
        ) : (
          <RelativeTime value={key.expires_at} />
        ),
    },
    {
      id: "actions",
      header: "Actions",
      headerHidden: true,
      width: "actions",
      align: "end",
      cell: (key) =>
        key.active ? (
          <Button size="sm" aria-label={`Revoke API key ${key.key_name}`} onClick={() => onRevoke(key)}>
            Revoke
          </Button>
        ) : (
          <Button size="sm" aria-label={`Delete API key ${key.key_name}`} onClick={() => onDelete(key)}>
            Delete
          </Button>
        ),
    },
  ];
  return (
    <PagedTable
      caption="Tenant API keys"
      columns={columns}
      rows={keys}
      rowKey={(key) => key.id}
      rowData={(key) => ({ "data-key-id": key.id, "data-state": key.active ? "active" : "revoked" })}
      busy={busy}
      pager={pager}
      link={Link}
    />
  );
}
