"use client";

import { Button, ProblemAlert, SegmentedControl } from "@fleet/ui";
import { useState } from "react";
import { forgetOnEdit } from "../../lib/field-errors.ts";
import { problemOf } from "../../lib/problem.ts";
import { kindChoices, type SecretKind } from "../secrets/kinds.ts";
import { useCreateSecret } from "../secrets/use-create-secret.ts";
import { focusField, useValueEditor, ValueEditor } from "../secrets/value-editor.tsx";
import "../../styles/secret-name.css";
import "./inline-secret-form.css";

/**
 * Creates one missing credential as a workspace secret without leaving the install: the name is the one the
 * definition requires, so only the value (and its kind) is asked. The value lives in this form alone and
 * goes when it unmounts.
 */
export function InlineSecretForm({
  workspaceId,
  name,
  onCreated,
  onCancel,
}: {
  workspaceId: string;
  name: string;
  onCreated: (name: string) => void;
  onCancel: () => void;
}) {
  const value = useValueEditor();
  const [kind, setKind] = useState<SecretKind>("generic");
  const create = useCreateSecret(onCreated);
  return (
    <form
      className="inline-secret"
      aria-label={`Create secret ${name}`}
      noValidate
      onInput={forgetOnEdit(create)}
      onSubmit={(event) => {
        event.preventDefault();
        const checked = value.read();
        if (!checked.ok) return focusField(checked.focus);
        create.mutate({ workspace_id: workspaceId, name, kind, data: checked.value });
      }}
    >
      <div className="inline-secret__head">
        <p className="inline-secret__title">
          New secret <span className="secret-name">{name}</span>
        </p>
        <SegmentedControl
          label={`Kind of secret ${name}`}
          value={kind}
          choices={kindChoices}
          onChange={setKind}
        />
      </div>
      <ValueEditor {...value.editor} label={`Value of ${name}`} />
      {create.error ? <ProblemAlert problem={problemOf(create.error)} /> : null}
      <div className="inline-secret__actions">
        <Button size="sm" onClick={onCancel} disabled={create.isPending}>
          Cancel
        </Button>
        <Button size="sm" type="submit" variant="primary" pending={create.isPending}>
          Create secret {name}
        </Button>
      </div>
    </form>
  );
}
