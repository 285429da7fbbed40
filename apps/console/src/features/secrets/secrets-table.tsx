"use client";

import { Badge, Button, RelativeTime } from "@fleet/ui";
import { kindLabels, kindTones, type SecretItem } from "./kinds.ts";

export interface SecretsTableProps {
  secrets: SecretItem[];
  workspaceName: string;
  onReplace: (secret: SecretItem) => void;
  onDelete: (secret: SecretItem) => void;
}

/** One row per secret: its name, kind and age. Never its value, which no answer of the API carries. */
export function SecretsTable({ secrets, workspaceName, onReplace, onDelete }: SecretsTableProps) {
  return (
    <div className="table-scroll">
      <table className="table secrets-table">
        <caption className="ui-visually-hidden">
          Secrets in the workspace {workspaceName}, oldest first
        </caption>
        <colgroup>
          <col />
          <col className="table__col-kind" />
          <col className="table__col-time" />
          <col className="table__col-actions-wide" />
        </colgroup>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Kind</th>
            <th scope="col">Created</th>
            <th scope="col">
              <span className="ui-visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {secrets.map((secret) => (
            <tr key={secret.name} data-secret-name={secret.name} data-kind={secret.kind}>
              <th scope="row">
                <span className="secret-name">{secret.name}</span>
              </th>
              <td>
                <Badge tone={kindTones[secret.kind]}>{kindLabels[secret.kind]}</Badge>
              </td>
              <td>
                <RelativeTime value={secret.created_at} />
              </td>
              <td className="table__actions">
                <span className="table__action-group">
                  <Button
                    size="sm"
                    aria-label={`Replace secret ${secret.name}`}
                    onClick={() => onReplace(secret)}
                  >
                    Replace
                  </Button>
                  <Button
                    size="sm"
                    aria-label={`Delete secret ${secret.name}`}
                    onClick={() => onDelete(secret)}
                  >
                    Delete
                  </Button>
                </span>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
