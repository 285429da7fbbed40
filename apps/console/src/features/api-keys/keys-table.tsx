"use client";

import type { ApiKeyItem } from "@fleet/contracts";
import { Badge, Button, RelativeTime } from "@fleet/ui";
import { SortHeader } from "./sort-header.tsx";
import type { ListPosition } from "./urls.ts";

export interface KeysTableProps {
  keys: ApiKeyItem[];
  position: ListPosition;
  onRevoke: (key: ApiKeyItem) => void;
  onDelete: (key: ApiKeyItem) => void;
  /** A newer page is loading: the rows shown are the previous page's. */
  stale?: boolean;
}

/** One row per key: never the key itself, which only the mint answer carries. */
export function KeysTable({ keys, position, onRevoke, onDelete, stale }: KeysTableProps) {
  return (
    <div className="table-scroll">
      <table className="table" aria-busy={stale || undefined}>
        <caption className="ui-visually-hidden">Tenant API keys</caption>
        {/* Fixed widths keep the columns still when a key changes state. */}
        <colgroup>
          <col />
          <col className="table__col-status" />
          <col className="table__col-time" />
          <col className="table__col-time" />
          <col className="table__col-time" />
          <col className="table__col-actions" />
        </colgroup>
        <thead>
          <tr>
            <SortHeader field="key_name" label="Name" position={position} />
            <th scope="col">Status</th>
            <SortHeader field="created_at" label="Created" position={position} />
            <th scope="col">Last used</th>
            <th scope="col">Revoked</th>
            <th scope="col">
              <span className="ui-visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {keys.map((key) => (
            <tr key={key.id} data-key-id={key.id} data-state={key.active ? "active" : "revoked"}>
              <th scope="row" className="table__primary">
                <span className="key-name">{key.key_name}</span>
                {key.description ? <span className="key-description">{key.description}</span> : null}
              </th>
              <td>
                {key.active ? <Badge tone="success">Active</Badge> : <Badge tone="neutral">Revoked</Badge>}
              </td>
              <td>
                <RelativeTime value={key.created_at} />
              </td>
              <td>
                {key.last_used_at === null ? (
                  <span className="muted">never</span>
                ) : (
                  <RelativeTime value={key.last_used_at} />
                )}
              </td>
              <td>
                {key.revoked_at === null ? (
                  <>
                    <span className="muted" aria-hidden="true">
                      —
                    </span>
                    <span className="ui-visually-hidden">Not revoked</span>
                  </>
                ) : (
                  <RelativeTime value={key.revoked_at} />
                )}
              </td>
              <td className="table__actions">
                {key.active ? (
                  <Button
                    size="sm"
                    aria-label={`Revoke API key ${key.key_name}`}
                    onClick={() => onRevoke(key)}
                  >
                    Revoke
                  </Button>
                ) : (
                  <Button
                    size="sm"
                    aria-label={`Delete API key ${key.key_name}`}
                    onClick={() => onDelete(key)}
                  >
                    Delete
                  </Button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
