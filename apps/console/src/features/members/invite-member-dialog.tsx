"use client";

import { TextField } from "@fleet/ui";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useId } from "react";
import { FormDialog } from "../../components/form-dialog.tsx";
import { ShownOnceDialog } from "../../components/shown-once-dialog.tsx";
import { useTRPC } from "../../lib/trpc.ts";
import { RoleField, readMemberForm, ScopePicker } from "./scope-picker.tsx";

/**
 * Invites a person with the scopes chosen, then shows the one-time sign-in link for the inviter to pass
 * on (the service sends no mail). Like a new API key, the link is shown once: only "Done" closes it.
 */
export function InviteMemberDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const trpc = useTRPC();
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
      description="They join this tenant with exactly the scopes you tick. You can grant only scopes you hold."
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
        <RoleField value="member" />
        <ScopePicker selected={["fleet:read", "approval:read"]} />
      </form>
    </FormDialog>
  );
}
