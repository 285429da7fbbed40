"use client";

import type { MemberRole } from "@fleet/contracts";
import { TextField } from "@fleet/ui";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useId } from "react";
import { FormDialog } from "../../components/form-dialog.tsx";
import { ShownOnceDialog } from "../../components/shown-once-dialog.tsx";
import { useHeldScopes } from "../../lib/access.ts";
import { useTRPC } from "../../lib/trpc.ts";
import { leastPreset, readMemberForm, ScopePicker } from "./scope-picker.tsx";

/**
 * Invites a person with the scopes chosen, then shows the one-time sign-in link for the inviter to pass
 * on (the service sends no mail). Like a new API key, the link is shown once: only "Done" closes it.
 */
export function InviteMemberDialog({
  open,
  onClose,
  callerRole,
}: {
  open: boolean;
  onClose: () => void;
  /** The inviter's own role, when the members page has it: only an owner invites an owner. */
  callerRole?: MemberRole | undefined;
}) {
  const trpc = useTRPC();
  const held = useHeldScopes();
  const queryClient = useQueryClient();
  const formId = useId();
  const invite = useMutation(
    trpc.members.invite.mutationOptions({
      gcTime: 0,
      onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.members.list.pathKey() }),
    }),
  );
  const invited = invite.data;

  function close() {
    invite.reset();
    onClose();
  }

  if (invited) {
    return (
      <ShownOnceDialog
        open={open}
        onClose={close}
        title="Pass on the sign-in link"
        description={`${invited.member.email} is now a member. Send them this link so they can sign in.`}
        warning={
          <>
            <strong>This link is shown only once, works once and expires in 10 minutes.</strong> Anyone who
            opens it signs in as {invited.member.email}: send it privately. A new one is{" "}
            <code>fleetctl login-link</code>'s.
          </>
        }
        label={`Sign-in link for ${invited.member.email}`}
        value={invited.sign_in_url}
        copyLabel={`Copy sign-in link for ${invited.member.email}`}
      />
    );
  }

  return (
    <FormDialog
      open={open}
      onClose={close}
      formId={formId}
      submitLabel="Invite member"
      mutation={invite}
      title="Invite a member"
      description="They join this tenant with exactly the scopes you tick: start from a role preset. You can grant only scopes you hold."
      size="wide"
    >
      <form
        id={formId}
        onSubmit={(event) => {
          event.preventDefault();
          const form = event.currentTarget;
          const email = String(new FormData(form).get("email") ?? "");
          invite.mutate({ email, ...readMemberForm(form) });
        }}
      >
        <TextField
          label="Email"
          name="email"
          type="email"
          required
          maxLength={254}
          autoComplete="off"
          placeholder="someone@example.com"
        />
        {/* Least privilege first: the Viewer preset, once the inviter's own scopes are known. */}
        {open && held ? (
          <ScopePicker initial={leastPreset(held)} memberRole="member" callerRole={callerRole} />
        ) : null}
      </form>
    </FormDialog>
  );
}
