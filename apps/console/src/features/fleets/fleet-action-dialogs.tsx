"use client";

import { ConfirmDialog, TypedConfirmDialog } from "@fleet/ui";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { problemOf, statusOf } from "../../lib/problem.ts";
import { useTRPC } from "../../lib/trpc.ts";
import type { StatusChange } from "./use-fleet-status.ts";

/** The fleet an action is about, as it was shown when the action was chosen. */
export interface FleetRef {
  id: string;
  name: string;
  workspaceId: string;
  /** The version shown, when the page has it (the fleet page does, lists do not). */
  etag?: string | undefined;
}

export type ConfirmedAction = { action: "stop" | "kill" | "delete"; fleet: FleetRef } | null;

export function statusChange(fleet: FleetRef, status: StatusChange["status"]): StatusChange {
  return {
    workspace_id: fleet.workspaceId,
    fleet_id: fleet.id,
    status,
    ...(fleet.etag ? { if_match: fleet.etag } : {}),
  };
}

interface DialogsProps {
  pending: ConfirmedAction;
  onClose: () => void;
  /** Sends a confirmed move; the status change is optimistic, so the dialog closes at once. */
  onChange: (change: StatusChange) => void;
  /** After a delete the API confirmed (the fleet's page has nothing left to show). */
  onDeleted: (fleet: FleetRef) => void;
}

/** The confirmations for the moves that deserve one: stop (reversible), kill (terminal) and delete. */
export function FleetActionDialogs({ pending, onClose, onChange, onDeleted }: DialogsProps) {
  const fleet = pending?.fleet;
  const name = fleet?.name ?? "";
  return (
    <>
      <ConfirmDialog
        open={pending?.action === "stop"}
        tone="default"
        title={`Stop fleet ${name}?`}
        confirmLabel="Stop fleet"
        onCancel={onClose}
        onConfirm={() => {
          if (fleet) onChange(statusChange(fleet, "stopped"));
          onClose();
        }}
      >
        <p className="dialog-text">
          <strong>{name}</strong> stops taking messages and its schedules stop waking it. Nothing is deleted:
          resume it to take work again.
        </p>
      </ConfirmDialog>
      <TypedConfirmDialog
        open={pending?.action === "kill"}
        title={`Kill fleet ${name}?`}
        phrase={name}
        confirmLabel="Kill fleet"
        onCancel={onClose}
        onConfirm={() => {
          if (fleet) onChange(statusChange(fleet, "killed"));
          onClose();
        }}
      >
        <p className="dialog-text">
          Killing is terminal. <strong>{name}</strong> accepts no work again and cannot be resumed; its events
          and memories stay readable until you delete it. To take work again later, pause or stop it instead.
        </p>
      </TypedConfirmDialog>
      {pending?.action === "delete" ? (
        <DeleteFleetDialog fleet={pending.fleet} onClose={onClose} onDeleted={onDeleted} />
      ) : null}
    </>
  );
}

function DeleteFleetDialog({
  fleet,
  onClose,
  onDeleted,
}: {
  fleet: FleetRef;
  onClose: () => void;
  onDeleted: (fleet: FleetRef) => void;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.fleets.list.pathKey() });
  const remove = useMutation(
    trpc.fleets.delete.mutationOptions({
      onSuccess: async () => {
        queryClient.removeQueries({
          queryKey: trpc.fleets.get.queryKey({ workspace_id: fleet.workspaceId, fleet_id: fleet.id }),
        });
        await refresh();
        onDeleted(fleet);
        onClose();
      },
      // Already gone: the list behind the dialog is stale.
      onError: (error) => (statusOf(error) === 404 ? refresh() : undefined),
    }),
  );
  return (
    <ConfirmDialog
      open
      title={`Delete fleet ${fleet.name}?`}
      confirmLabel="Delete fleet"
      pending={remove.isPending}
      problem={remove.error ? problemOf(remove.error) : null}
      onCancel={onClose}
      onConfirm={() => remove.mutate({ workspace_id: fleet.workspaceId, fleet_id: fleet.id })}
    >
      <p className="dialog-text">
        <strong>{fleet.name}</strong> is deleted with everything it holds: its events, its memories and its
        schedules go with it. Deleting cannot be undone; the library entry it came from stays, so you can
        install it again.
      </p>
    </ConfirmDialog>
  );
}
