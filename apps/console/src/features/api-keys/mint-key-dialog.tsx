"use client";

import { Button, Callout, CopyField, Dialog, TextField } from "@fleet/ui";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useId } from "react";
import { FormDialog } from "../../components/form-dialog.tsx";
import { useTRPC } from "../../lib/trpc.ts";

/**
 * Mints a key and reveals it once. While the key is on screen only "Done" closes the dialog: Esc and
 * outside clicks are ignored, so the only copy is not lost by a slip. Closing forgets the key.
 */
export function MintKeyDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const formId = useId();
  const create = useMutation(
    trpc.apiKeys.create.mutationOptions({
      // Keep the minted key out of the mutation cache once the dialog lets go of it.
      gcTime: 0,
      onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.apiKeys.list.pathKey() }),
    }),
  );
  const minted = create.data;

  function close() {
    create.reset();
    onClose();
  }

  if (minted) {
    return (
      <Dialog
        open={open}
        onClose={close}
        dismissible={false}
        title="Copy your new API key"
        description={`The key ${minted.key_name} is ready. Use it as a Bearer token.`}
        footer={
          // A key of its own: reusing the form's Cancel button would animate it from grey to blue.
          <Button key="done" variant="primary" onClick={close}>
            Done
          </Button>
        }
      >
        <Callout>
          <p>
            <strong>This key is shown only once.</strong> Copy it now and store it in a secret manager; the
            service keeps only its hash and cannot show it again.
          </p>
        </Callout>
        <CopyField
          label={`API key ${minted.key_name}`}
          value={minted.key}
          copyLabel={`Copy API key ${minted.key_name}`}
          autoFocus
        />
      </Dialog>
    );
  }

  return (
    <FormDialog
      open={open}
      onClose={close}
      formId={formId}
      submitLabel="Create key"
      mutation={create}
      title="Create an API key"
      description="The key acts as you, with your scopes, in this tenant. You can revoke it at any time."
    >
      <form
        id={formId}
        onSubmit={(event) => {
          event.preventDefault();
          const form = new FormData(event.currentTarget);
          create.mutate({
            key_name: String(form.get("key_name") ?? ""),
            description: String(form.get("description") ?? ""),
          });
        }}
      >
        <TextField
          label="Name"
          name="key_name"
          required
          maxLength={128}
          autoComplete="off"
          placeholder="deploy-bot"
          hint="Say what uses the key, so you know what breaks when you revoke it."
        />
        <TextField label="Description" name="description" optional maxLength={1024} autoComplete="off" />
      </form>
    </FormDialog>
  );
}
