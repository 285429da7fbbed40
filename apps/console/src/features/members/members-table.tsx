"use client";

import type { MemberItem } from "@fleet/contracts";
import { Badge, Button, type Column, PagedTable, type PagedTableProps, RelativeTime } from "@fleet/ui";
import { Link } from "../../components/link.tsx";
import "../../styles/table-cells.css";
import "./members-table.css";

export interface MembersTableProps {
  members: MemberItem[];
  /** The signed-in person, marked "you". */
  selfId: string | undefined;
  onEdit: (member: MemberItem) => void;
  onRemove: (member: MemberItem) => void;
  busy: boolean;
  pager: PagedTableProps<MemberItem>["pager"];
}

export function MembersTable({ members, selfId, onEdit, onRemove, busy, pager }: MembersTableProps) {
  const columns: Column<MemberItem>[] = [
    {
      id: "person",
      header: "Person",
      rowHeader: true,
      cell: (member) => (
        <span className="key-cell">
          <span className="key-name">
            {member.email}
            {member.user_id === selfId ? <span className="muted"> (you)</span> : null}
          </span>
          {member.display_name ? <span className="key-description">{member.display_name}</span> : null}
        </span>
      ),
    },
    {
      id: "role",
      header: "Role",
      width: "status",
      cell: (member) =>
        member.role === "owner" ? <Badge tone="info">Owner</Badge> : <Badge tone="neutral">Member</Badge>,
    },
    {
      id: "scopes",
      header: "Scopes",
      cell: (member) =>
        member.scopes.length === 0 ? (
          <span className="muted">none</span>
        ) : (
          <span className="member-scopes">
            {member.scopes.map((scope) => (
              <code key={scope}>{scope}</code>
            ))}
          </span>
        ),
    },
    {
      id: "joined",
      header: "Joined",
      width: "time",
      cell: (member) => <RelativeTime value={member.created_at} />,
    },
    {
      id: "actions",
      header: "Actions",
      headerHidden: true,
      width: "wide-actions",
      align: "end",
      cell: (member) => (
        <span className="row-actions">
          <Button size="sm" aria-label={`Change member ${member.email}`} onClick={() => onEdit(member)}>
            Change
          </Button>
          <Button size="sm" aria-label={`Remove member ${member.email}`} onClick={() => onRemove(member)}>
            Remove
          </Button>
        </span>
      ),
    },
  ];
  return (
    <PagedTable
      caption="Members of this tenant, oldest first"
      columns={columns}
      rows={members}
      rowKey={(member) => member.user_id}
      rowData={(member) => ({ "data-user-id": member.user_id, "data-role": member.role })}
      busy={busy}
      pager={pager}
      link={Link}
    />
  );
}
