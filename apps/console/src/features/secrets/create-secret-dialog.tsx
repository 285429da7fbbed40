"use client";

import { type ProblemView, RadioCards, TextField } from "@fleet/ui";
import { useEffect, useId, useState } from "react";
import { FormDialog } from "../../components/form-dialog.tsx";
import { problemOf } from "../../lib/problem.ts";
import { kindChoices, type SecretKind, type Workspace } from "./kinds.ts";
import { useCreateSecret } from "./use-create-secret.ts";
import { checkName, type SecretData } from "./value.ts";
import { focusField, useValueEditor, ValueEditor } from "./value-editor.tsx";
import "./secret-form.css";

interface NewSecret {
  name: string;
  kind: SecretKind;
  data: SecretData;
}

/**
 * The form's state (name, kind, value) lives here, inside the dialog's body, which the dialog unmounts
 * when it closes: the value is gone from memory once the dialog is.
 */
function CreateSecretForm({
  formId,
  problem,
  onSubmit,
}: {
  formId: string;
  problem: ProblemView | null;
  onSubmit: (secret: NewSecret) => void;
}) {
  const nameId = useId();
  const [name, setName] = useState("");
  const [nameError, setNameError] = useState<string | null>(null);
  const [kind, setKind] = useState<SecretKind>("generic");
  const value = useValueEditor();

  // A taken name is the one thing to change: put the cursor there.
  const taken = problem?.error_code === "UZ-VAULT-005";
  useEffect(() => {
    if (taken) focusField(nameId);
  }, [taken, nameId]);

  return (
    <form
      id={formId}
      className="secret-form"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        // A client-side check for a clear message; the API's answer is the one that counts.
        const trimmed = name.trim();
        const nameProblem = checkName(trimmed);
        const checked = value.read();
        setNameError(nameProblem);
        if (nameProblem) return focusField(nameId);
        if (!checked.ok) return focusField(checked.focus);
        onSubmit({ name: trimmed, kind, data: checked.value });
      }}
    >
      <TextField
        id={nameId}
        label="Name"
        value={name}
        onChange={(event) => {
          setName(event.target.value);
          setNameError(null);
        }}
        error={nameError}
        aria-required
        autoComplete="off"
        autoCapitalize="off"
        spellCheck={false}
        placeholder="e.g. OPENAI_API_KEY"
        hint="Fleets refer to the secret by this name. Letters, digits, _, . and -, starting with a letter or _."
      />
      <RadioCards label="Kind" value={kind} choices={kindChoices} onChange={setKind} />
      <ValueEditor {...value.editor} />
    </form>
  );
}

/** Creates a secret in one workspace. The value is sent once and never shown again, here or anywhere. */
export function CreateSecretDialog({
  open,
  workspace,
  onClose,
  onCreated,
}: {
  open: boolean;
  workspace: Pick<Workspace, "id" | "name">;
  onClose: () => void;
  onCreated: (name: string) => void;
}) {
  const formId = useId();
  const create = useCreateSecret((name) => {
    onCreated(name);
    close();
  });
  const problem = create.error ? problemOf(create.error) : null;

  function close() {
    create.reset();
    onClose();
  }

  return (
    <FormDialog
      open={open}
      onClose={close}
      formId={formId}
      submitLabel="Create secret"
      mutation={create}
      size="wide"
      title="Create a secret"
      description={
        <>
          Stored encrypted in the workspace <strong>{workspace.name}</strong>. Fleets read it by name; nobody
          can read the value back, in the console or through the API.
        </>
      }
    >
      <CreateSecretForm
        formId={formId}
        problem={problem}
        onSubmit={(secret) => create.mutate({ workspace_id: workspace.id, ...secret })}
      />
    </FormDialog>
  );
}
