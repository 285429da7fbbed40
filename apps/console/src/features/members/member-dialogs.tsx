"use client";

import type { MemberItem } from "@fleet/contracts";
import { TypedConfirmDialog } from "@fleet/ui";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useId } from "react";
import { FormDialog } from "../../components/form-dialog.tsx";
import { problemOf } from "../../lib/problem.ts";
import { useTRPC } from "../../lib/trpc.ts";
import { readMemberForm, ScopePicker } from "./scope-picker.tsx";

interface MemberDialogProps {
  member: MemberItem;
  onClose: () => void;
}

function useRefreshThenClose(onClose: () => void) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return async () => {
    await queryClient.invalidateQueries({ queryKey: trpc.members.list.pathKey() });
    onClose();
  };
}

/** Changes a member's role and scopes; their sessions and keys act with the new scopes at once. */
export function EditMemberDialog({ member, onClose }: MemberDialogProps) {
  const trpc = useTRPC();
  const formId = useId();
  const done = useRefreshThenClose(onClose);
  const update = useMutation(trpc.members.update.mutationOptions({ onSuccess: done }));
  return (
    <FormDialog
      open
      onClose={onClose}
      formId={formId}
      submitLabel="Save changes"
      mutation={update}
      title={`Change ${member.email}`}
      description="Their sessions and API keys act with the new scopes from their next request, on every instance. A scope you add must be one you hold."
      size="wide"
    >
      <form
        id={formId}
        onSubmit={(event) => {
          event.preventDefault();
          update.mutate({ user_id: member.user_id, ...readMemberForm(event.currentTarget) });
        }}
      >
        <ScopePicker initial={member.scopes} kept={member.scopes} memberRole={member.role} />
      </form>
    </FormDialog>
  );
}

/**
 * Removing a member cannot be undone and ends their access everywhere, so it takes the typed address.
 * The API refuses the tenant's last owner (409): its words show in the dialog.
 */
export function RemoveMemberDialog({ member, onClose }: MemberDialogProps) {
  const trpc = useTRPC();
  const done = useRefreshThenClose(onClose);
  const remove = useMutation(trpc.members.remove.mutationOptions({ onSuccess: done }));
  return (
    <TypedConfirmDialog
      open
      title={`Remove ${member.email}?`}
      phrase={member.email}
      confirmLabel="Remove member"
      pending={remove.isPending}
      problem={remove.error ? problemOf(remove.error) : null}
      onCancel={onClose}
      onConfirm={() => remove.mutate({ user_id: member.user_id })}
    >
      <p className="dialog-text">
        <strong>{member.email}</strong> loses access at once, on every instance: their next request with a
        session, a command-line credential or any API key they created is refused, their open live tails end,
        and their API keys in this tenant are revoked. Inviting them again does not bring those back.
      </p>
    </TypedConfirmDialog>
  );
}
