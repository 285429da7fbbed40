"use client";

import { Badge, Button, PlusIcon } from "@fleet/ui";
import { InlineSecretForm } from "./inline-secret-form.tsx";
import "../../styles/secret-name.css";
import "./credential-checklist.css";

export interface CredentialChecklistProps {
  workspaceId: string;
  workspaceName: string;
  /** The credentials the entry requires, in the definition's order. */
  required: readonly string[];
  /** Why the fleet needs each, from the definition. */
  reasons: Readonly<Record<string, string>>;
  /** The secret names the workspace holds; undefined while they load or when they cannot be read. */
  held: ReadonlySet<string> | undefined;
  /** The credential whose inline form is open. */
  creating: string | null;
  onCreating: (name: string | null) => void;
  onCreated: (name: string) => void;
}

/**
 * Each credential the fleet needs, with the definition's reason and whether the workspace holds a secret of
 * that name; a missing one can be created in place.
 */
export function CredentialChecklist({
  workspaceId,
  workspaceName,
  required,
  reasons,
  held,
  creating,
  onCreating,
  onCreated,
}: CredentialChecklistProps) {
  if (required.length === 0) {
    return <p className="muted install__none">This fleet needs no credentials.</p>;
  }
  return (
    <ul className="credential-list" aria-label="Required credentials">
      {required.map((name) => {
        const state = held === undefined ? "unknown" : held.has(name) ? "held" : "missing";
        return (
          <li key={name} className="credential" data-credential={name} data-state={state}>
            <div className="credential__row">
              <div className="credential__text">
                <span className="secret-name">{name}</span>
                <span className="credential__reason">{reasons[name] ?? "No reason given."}</span>
              </div>
              {state === "held" ? (
                <Badge tone="success">In {workspaceName}</Badge>
              ) : state === "missing" ? (
                <span className="credential__missing">
                  <Badge tone="warning">Missing</Badge>
                  {creating === name ? null : (
                    <Button
                      size="sm"
                      icon={<PlusIcon />}
                      aria-label={`Create secret ${name}`}
                      onClick={() => onCreating(name)}
                    >
                      Create
                    </Button>
                  )}
                </span>
              ) : (
                <Badge tone="neutral">Not checked</Badge>
              )}
            </div>
            {creating === name && state === "missing" ? (
              <InlineSecretForm
                workspaceId={workspaceId}
                name={name}
                onCancel={() => onCreating(null)}
                onCreated={(created) => {
                  onCreating(null);
                  onCreated(created);
                }}
              />
            ) : null}
          </li>
        );
      })}
    </ul>
  );
}
