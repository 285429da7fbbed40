"use client";

import { Callout, ConfirmDialog } from "@fleet/ui";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useId } from "react";
import { FormDialog } from "../../components/form-dialog.tsx";
import { problemOf, statusOf } from "../../lib/problem.ts";
import { type ApiError, useTRPC } from "../../lib/trpc.ts";
import type { SecretItem, Workspace } from "./kinds.ts";
import type { SecretData } from "./value.ts";
import { focusField, useValueEditor, ValueEditor } from "./value-editor.tsx";
import "../../styles/secret-name.css";
import "./secret-form.css";

/** The secret an action is about, with the workspace it was listed in when the action was chosen. */
export interface SecretTarget {
  workspace: Pick<Workspace, "id" | "name">;
  secret: SecretItem;
}

interface ActionDialogProps {
  /** The secret to act on; null keeps the dialog closed (it stays mounted so focus returns on close). */
  target: SecretTarget | null;
  onClose: () => void;
  onDone: (message: string) => void;
}

function useSecretsRefresh() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: trpc.secrets.list.pathKey() });
}

/** A secret that is already gone: the list behind the dialog is stale, so refresh it. */
const gone = (error: ApiError) => statusOf(error) === 404;

function ReplaceForm({ formId, onSubmit }: { formId: string; onSubmit: (data: SecretData) => void }) {
  const value = useValueEditor();
  return (
    <form
      id={formId}
      className="secret-form"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        const checked = value.read();
        if (!checked.ok) return focusField(checked.focus);
        onSubmit(checked.value);
      }}
    >
      <ValueEditor {...value.editor} label="New value" />
    </form>
  );
}

/** Replaces a secret's value whole; the form (and the value typed into it) unmounts when it closes. */
export function ReplaceSecretDialog({ target, onClose, onDone }: ActionDialogProps) {
  const trpc = useTRPC();
  const refresh = useSecretsRefresh();
  const formId = useId();
  const replace = useMutation(
    trpc.secrets.replace.mutationOptions({
      gcTime: 0,
      onSuccess: async ({ name }) => {
        await refresh();
        onDone(`Replaced the value of ${name}.`);
        close();
      },
      onError: (error) => (gone(error) ? refresh() : undefined),
    }),
  );
  const name = target?.secret.name ?? "";

  function close() {
    replace.reset();
    onClose();
  }

  return (
    <FormDialog
      open={target !== null}
      onClose={close}
      formId={formId}
      submitLabel="Replace secret"
      mutation={replace}
      size="wide"
      title={`Replace secret ${name}`}
      description={
        <>
          A new value for <strong className="secret-name">{name}</strong> in the workspace{" "}
          <strong>{target?.workspace.name}</strong>.
        </>
      }
    >
      <Callout>
        <p>
          <strong>The stored value is replaced whole.</strong> Fields you leave out are removed, not kept, and
          the current value cannot be shown: enter every field the secret needs.
        </p>
      </Callout>
      {target ? (
        <ReplaceForm
          formId={formId}
          onSubmit={(data) =>
            replace.mutate({ workspace_id: target.workspace.id, secret_name: target.secret.name, data })
          }
        />
      ) : null}
    </FormDialog>
  );
}

/** Deleting cuts off every fleet that reads the secret, so the dialog says so before asking. */
export function DeleteSecretDialog({ target, onClose, onDone }: ActionDialogProps) {
  const trpc = useTRPC();
  const refresh = useSecretsRefresh();
  const remove = useMutation(
    trpc.secrets.delete.mutationOptions({
      onSuccess: async () => {
        await refresh();
        onDone(`Deleted ${name}.`);
        close();
      },
      onError: (error) => (gone(error) ? refresh() : undefined),
    }),
  );
  const name = target?.secret.name ?? "";

  function close() {
    remove.reset();
    onClose();
  }

  return (
    <ConfirmDialog
      open={target !== null}
      title={`Delete secret ${name}?`}
      confirmLabel="Delete secret"
      pending={remove.isPending}
      problem={remove.error ? problemOf(remove.error) : null}
      onCancel={close}
      onConfirm={() => {
        if (target) remove.mutate({ workspace_id: target.workspace.id, secret_name: target.secret.name });
      }}
    >
      <p className="dialog-text">
        Fleets that use <strong className="secret-name">{name}</strong> lose access at once: whatever reads it
        fails until a secret of that name exists again in <strong>{target?.workspace.name}</strong>. The value
        is destroyed; deleting cannot be undone.
      </p>
    </ConfirmDialog>
  );
}
