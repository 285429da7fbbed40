"use client";

import { ConfirmDialog } from "@fleet/ui";
import { useMutation } from "@tanstack/react-query";
import { problemOf } from "../../lib/problem.ts";
import { useTRPC } from "../../lib/trpc.ts";
import { type Endpoint, endpointName } from "./endpoint.ts";
import { SecretShownOnce } from "./endpoint-dialog.tsx";
import { useWebhooksRefresh } from "./use-deliveries.ts";

interface ActionDialogProps {
  workspaceId: string;
  endpoint: Endpoint;
  onClose: () => void;
  onDone: (message: string) => void;
}

/** A rotation asks first (it says what happens to the old secret), then reveals the new one once. */
export function RotateSecretDialog({ workspaceId, endpoint, onClose, onDone }: ActionDialogProps) {
  const trpc = useTRPC();
  const refresh = useWebhooksRefresh();
  const rotate = useMutation(
    trpc.webhookEndpoints.rotateSecret.mutationOptions({ gcTime: 0, onSuccess: () => refresh() }),
  );
  const name = endpointName(endpoint);
  if (rotate.data) {
    return (
      <SecretShownOnce
        endpoint={rotate.data}
        secret={rotate.data.secret}
        onClose={() => {
          rotate.reset();
          onDone(`Rotated the secret of ${name}.`);
          onClose();
        }}
      />
    );
  }
  return (
    <ConfirmDialog
      open
      title={`Rotate the signing secret of ${name}?`}
      confirmLabel="Rotate secret"
      pending={rotate.isPending}
      problem={rotate.error ? problemOf(rotate.error) : null}
      onCancel={onClose}
      onConfirm={() => rotate.mutate({ workspace_id: workspaceId, endpoint_id: endpoint.id })}
    >
      <p className="dialog-text">
        A new secret is made and shown once. For 24 hours every delivery carries two signatures, one with each
        secret, so your receiver can switch without missing one; then the old secret stops signing.
      </p>
    </ConfirmDialog>
  );
}

/** Deleting stops every delivery at once, pending ones included, and says so before asking. */
export function DeleteEndpointDialog({ workspaceId, endpoint, onClose, onDone }: ActionDialogProps) {
  const trpc = useTRPC();
  const refresh = useWebhooksRefresh();
  const name = endpointName(endpoint);
  const remove = useMutation(
    trpc.webhookEndpoints.delete.mutationOptions({
      onSuccess: async () => {
        await refresh();
        onDone(`Deleted ${name}.`);
        onClose();
      },
    }),
  );
  return (
    <ConfirmDialog
      open
      title={`Delete webhook endpoint ${name}?`}
      confirmLabel="Delete endpoint"
      pending={remove.isPending}
      problem={remove.error ? problemOf(remove.error) : null}
      onCancel={onClose}
      onConfirm={() => remove.mutate({ workspace_id: workspaceId, endpoint_id: endpoint.id })}
    >
      <p className="dialog-text">
        <strong>{name}</strong> receives nothing more, not even the deliveries still waiting to be retried,
        and its delivery history goes with it. This cannot be undone.
      </p>
    </ConfirmDialog>
  );
}
