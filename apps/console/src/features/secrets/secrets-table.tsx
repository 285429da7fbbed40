"use client";

import { Badge, type Column, GuardedButton, PagedTable, RelativeTime } from "@fleet/ui";
import { useLacking } from "../../lib/access.ts";
import { kindLabels, kindTones, type SecretItem } from "./kinds.ts";
import "../../styles/secret-name.css";

export interface SecretsTableProps {
  secrets: SecretItem[];
  workspaceName: string;
  onReplace: (secret: SecretItem) => void;
  onDelete: (secret: SecretItem) => void;
}

/**
 * One row per secret: its name, kind and age. Never its value, which no answer of the API carries. The
 * API lists a workspace's secrets whole, so the table has no pager.
 */
export function SecretsTable({ secrets, workspaceName, onReplace, onDelete }: SecretsTableProps) {
  // Reading the names needs secret:read; a member without secret:write sees why Replace and Delete are off.
  const cannotWrite = useLacking("secret:write");
  const columns: Column<SecretItem>[] = [
    {
      id: "name",
      header: "Name",
      rowHeader: true,
      cell: (secret) => <span className="secret-name">{secret.name}</span>,
    },
    {
      id: "kind",
      header: "Kind",
      width: "status",
      cell: (secret) => <Badge tone={kindTones[secret.kind]}>{kindLabels[secret.kind]}</Badge>,
    },
    {
      id: "created",
      header: "Created",
      width: "time",
      cell: (secret) => <RelativeTime value={secret.created_at} />,
    },
    {
      id: "actions",
      header: "Actions",
      headerHidden: true,
      width: "wide-actions",
      align: "end",
      cell: (secret) => (
        <span className="ui-table-actions">
          <GuardedButton
            size="sm"
            aria-label={`Replace secret ${secret.name}`}
            unavailable={cannotWrite}
            onClick={() => onReplace(secret)}
          >
            Replace
          </GuardedButton>
          <GuardedButton
            size="sm"
            aria-label={`Delete secret ${secret.name}`}
            unavailable={cannotWrite}
            onClick={() => onDelete(secret)}
          >
            Delete
          </GuardedButton>
        </span>
      ),
    },
  ];
  return (
    <PagedTable
      caption={`Secrets in the workspace ${workspaceName}, oldest first`}
      columns={columns}
      rows={secrets}
      rowKey={(secret) => secret.name}
      rowData={(secret) => ({ "data-secret-name": secret.name, "data-kind": secret.kind })}
    />
  );
}
