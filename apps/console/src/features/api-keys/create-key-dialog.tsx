"use client";

import type { tenantScopes } from "@fleet/contracts/scopes";
import { SelectField, TextField } from "@fleet/ui";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useId } from "react";
import { FormDialog } from "../../components/form-dialog.tsx";
import { ShownOnceDialog } from "../../components/shown-once-dialog.tsx";
import { useHeldScopes } from "../../lib/access.ts";
import { useTRPC } from "../../lib/trpc.ts";
import { leastPreset, ScopePicker } from "../members/scope-picker.tsx";

type TenantScope = (typeof tenantScopes)[number];

/** Expiry choices in days; "" never expires. The API allows up to 366 days. */
const expiryChoices = [
  ["", "Never"],
  ["7", "In 7 days"],
  ["30", "In 30 days"],
  ["90", "In 90 days"],
  ["365", "In 1 year"],
] as const;

/** Creates a key and reveals it once (`ShownOnceDialog`). Closing forgets the key. */
export function CreateKeyDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const formId = useId();
  const create = useMutation(
    trpc.apiKeys.create.mutationOptions({
      // Keep the created key out of the mutation cache once the dialog lets go of it.
      gcTime: 0,
      onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.apiKeys.list.pathKey() }),
    }),
  );
  const created = create.data;
  // Least privilege: the key starts from the Viewer preset (or the least one you can grant), never from
  // every scope you hold; those you lack are shown disabled with why.
  const held = useHeldScopes();

  function close() {
    create.reset();
    onClose();
  }

  if (created) {
    return (
      <ShownOnceDialog
        open={open}
        onClose={close}
        title="Copy your new API key"
        description={`The key ${created.key_name} is ready. Use it as a Bearer token.`}
        warning={
          <>
            <strong>This key is shown only once.</strong> Copy it now and store it in a secret manager; the
            service keeps only its hash and cannot show it again.
          </>
        }
        label={`API key ${created.key_name}`}
        value={created.key}
        copyLabel={`Copy API key ${created.key_name}`}
      />
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
      description="The key acts as you in this tenant, with the scopes you tick (never more than you hold): start from a role preset. You can revoke it at any time."
      size="wide"
    >
      <form
        id={formId}
        onSubmit={(event) => {
          event.preventDefault();
          const form = new FormData(event.currentTarget);
          const scopes = form.getAll("scopes").map(String) as TenantScope[];
          const days = Number(form.get("expires_in_days") || 0);
          create.mutate({
            key_name: String(form.get("key_name") ?? ""),
            description: String(form.get("description") ?? ""),
            // Always the ticked scopes: a key never grows when its creator is given more.
            scopes,
            ...(days > 0 ? { expires_at: Date.now() + days * 86_400_000 } : {}),
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
        <SelectField
          label="Expires"
          name="expires_in_days"
          defaultValue=""
          hint="After this the key is refused; create a new one to go on."
        >
          {expiryChoices.map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </SelectField>
        {open && held ? (
          <ScopePicker
            initial={leastPreset(held)}
            hint="A higher level includes the lower ones. The key keeps these scopes while you hold them."
          />
        ) : null}
      </form>
    </FormDialog>
  );
}
