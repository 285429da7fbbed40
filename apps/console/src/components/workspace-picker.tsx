"use client";

import { SelectField } from "@fleet/ui";
import type { RouterOutputs } from "../lib/trpc.ts";

type Workspace = RouterOutputs["workspaces"]["listVisible"]["items"][number];

/**
 * The workspace whose list is shown. Choosing one navigates, so the choice is in the URL; an id from the
 * URL that the list does not hold stays selected (the page's list then says why it fails).
 */
export function WorkspacePicker({
  workspaces,
  value,
  more,
  failed = false,
  onChange,
}: {
  workspaces: Workspace[] | undefined;
  value: string | undefined;
  /** The tenant has more workspaces than the picker lists. */
  more: boolean;
  /** The workspaces could not be read: the page's alert says why, the picker does not claim to load. */
  failed?: boolean;
  onChange: (workspaceId: string) => void;
}) {
  if (workspaces === undefined) {
    return (
      <SelectField inline label="Workspace" disabled value="">
        <option value="">{failed ? "Workspaces not loaded" : "Loading workspaces…"}</option>
      </SelectField>
    );
  }
  const listed = workspaces.some((workspace) => workspace.id === value);
  return (
    <SelectField
      inline
      label="Workspace"
      value={value ?? ""}
      onChange={(event) => onChange(event.target.value)}
      hint={more ? `The ${workspaces.length} newest workspaces.` : undefined}
    >
      {value !== undefined && !listed ? <option value={value}>Unknown workspace</option> : null}
      {workspaces.map((workspace) => (
        <option key={workspace.id} value={workspace.id}>
          {workspace.name}
        </option>
      ))}
    </SelectField>
  );
}
