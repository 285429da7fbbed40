"use client";

import {
  Button,
  Dialog,
  FormDialogFooter,
  ProblemAlert,
  type ProblemView,
  RadioCards,
  TextField,
} from "@fleet/ui";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useEffect, useId, useState } from "react";
import { problemOf } from "../../lib/problem.ts";
import { useTRPC } from "../../lib/trpc.ts";
import { kindChoices, type SecretKind, type Workspace } from "./kinds.ts";
import { checkName, type SecretData } from "./value.ts";
import { initialValue, readValue, ValueEditor, type ValueState } from "./value-editor.tsx";

interface NewSecret {
  name: string;
  kind: SecretKind;
  data: SecretData;
}

function focus(id: string | undefined) {
  if (id) document.getElementById(id)?.focus();
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
  const editorId = useId();
  const [name, setName] = useState("");
  const [nameError, setNameError] = useState<string | null>(null);
  const [kind, setKind] = useState<SecretKind>("generic");
  const [value, setValue] = useState<ValueState>(initialValue);

  // A taken name is the one thing to change: put the cursor there.
  const taken = problem?.error_code === "UZ-VAULT-005";
  useEffect(() => {
    if (taken) focus(nameId);
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
        const checked = readValue(value, editorId);
        setNameError(nameProblem);
        if (!checked.ok) setValue({ ...value, message: checked.message, invalid: checked.focus ?? null });
        if (nameProblem) return focus(nameId);
        if (!checked.ok) return focus(checked.focus);
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
      <ValueEditor state={value} onChange={setValue} idPrefix={editorId} />
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
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const formId = useId();
  const create = useMutation(
    trpc.secrets.create.mutationOptions({
      // The request carried the value: keep it out of the mutation cache once the dialog lets go.
      gcTime: 0,
      onSuccess: async (created) => {
        await queryClient.invalidateQueries({ queryKey: trpc.secrets.list.pathKey() });
        onCreated(created.name);
        close();
      },
    }),
  );
  const problem = create.error ? problemOf(create.error) : null;

  function close() {
    create.reset();
    onClose();
  }

  return (
    <Dialog
      open={open}
      onClose={close}
      dismissible={!create.isPending}
      size="wide"
      title="Create a secret"
      description={
        <>
          Stored encrypted in the workspace <strong>{workspace.name}</strong>. Fleets read it by name; nobody
          can read the value back, in the console or through the API.
        </>
      }
      footer={
        <FormDialogFooter
          formId={formId}
          submitLabel="Create secret"
          pending={create.isPending}
          onCancel={close}
        />
      }
    >
      <CreateSecretForm
        formId={formId}
        problem={problem}
        onSubmit={(secret) => create.mutate({ workspace_id: workspace.id, ...secret })}
      />
      {problem ? <ProblemAlert problem={problem} /> : null}
    </Dialog>
  );
}
