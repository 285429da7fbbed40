"use client";

import type { ApiKeyItem } from "@fleet/contracts";
import { ConfirmDialog } from "@fleet/ui";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { problemOf } from "../../lib/problem.ts";
import { useTRPC } from "../../lib/trpc.ts";

interface KeyDialogProps {
  apiKey: ApiKeyItem;
  onClose: () => void;
}

/** What a dialog does once its change is made: refresh the list, then close. */
function useRefreshThenClose(onClose: () => void) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return async () => {
    await queryClient.invalidateQueries({ queryKey: trpc.apiKeys.list.pathKey() });
    onClose();
  };
}

/** Revocation is immediate and final, so the dialog says both before asking. */
export function RevokeKeyDialog({ apiKey, onClose }: KeyDialogProps) {
  const trpc = useTRPC();
  const done = useRefreshThenClose(onClose);
  const revoke = useMutation(trpc.apiKeys.update.mutationOptions({ onSuccess: done }));
  return (
    <ConfirmDialog
      open
      title={`Revoke API key ${apiKey.key_name}?`}
      confirmLabel="Revoke key"
      pending={revoke.isPending}
      problem={revoke.error ? problemOf(revoke.error) : null}
      onCancel={onClose}
      onConfirm={() => revoke.mutate({ id: apiKey.id, active: false })}
    >
      <p className="dialog-text">
        Requests with this key fail at once, on every instance of the service. Revocation cannot be undone:
        anything still using <strong>{apiKey.key_name}</strong> needs a new key.
      </p>
    </ConfirmDialog>
  );
}

/** Deleting only removes the record of a key that is already refused everywhere. */
export function DeleteKeyDialog({ apiKey, onClose }: KeyDialogProps) {
  const trpc = useTRPC();
  const done = useRefreshThenClose(onClose);
  const remove = useMutation(trpc.apiKeys.delete.mutationOptions({ onSuccess: done }));
  return (
    <ConfirmDialog
      open
      title={`Delete API key ${apiKey.key_name}?`}
      confirmLabel="Delete key"
      pending={remove.isPending}
      problem={remove.error ? problemOf(remove.error) : null}
      onCancel={onClose}
      onConfirm={() => remove.mutate({ id: apiKey.id })}
    >
      <p className="dialog-text">
        The revoked key <strong>{apiKey.key_name}</strong> disappears from this list, with its creation and
        last-use record. It already authenticates nothing; deleting cannot be undone.
      </p>
    </ConfirmDialog>
  );
}
