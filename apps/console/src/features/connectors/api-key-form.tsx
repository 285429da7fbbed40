"use client";

import { Button, SecretInput } from "@fleet/ui";
import { useMutation } from "@tanstack/react-query";
import { useId, useState } from "react";
import { ActionProblem } from "../../components/query-problem.tsx";
import { useTRPC } from "../../lib/trpc.ts";
import "./api-key-form.css";

/** What the API accepts as a key (the contract's rule): printable ASCII without spaces, 8 to 256 long. */
const KEY = /^[\x21-\x7e]{8,256}$/;

/**
 * Connects an API-key provider: the key is pasted, sent once, checked by the vendor and sealed by the
 * service. It is never shown again; the field is cleared once the provider is connected.
 */
export function ApiKeyForm({
  where,
  displayName,
  reconnect,
  onConnected,
}: {
  where: { workspace_id: string; provider: string };
  displayName: string;
  reconnect: boolean;
  onConnected: () => Promise<unknown>;
}) {
  const trpc = useTRPC();
  const [key, setKey] = useState("");
  const [invalid, setInvalid] = useState<string | null>(null);
  const id = useId();
  const connect = useMutation(
    trpc.connectors.connect.mutationOptions({
      onSuccess: async () => {
        setKey("");
        await onConnected();
      },
    }),
  );
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  return (
    <form
      className="connector-key"
      noValidate
      aria-label={`Connect ${displayName} with an API key`}
      onSubmit={(event) => {
        event.preventDefault();
        const trimmed = key.trim();
        if (trimmed === "") return setInvalid(`Paste the ${displayName} API key.`);
        if (!KEY.test(trimmed))
          return setInvalid("An API key is 8 to 256 letters, digits or symbols, with no spaces.");
        setInvalid(null);
        connect.mutate({ ...where, api_key: trimmed });
      }}
    >
      <div className="ui-field connector-key__field">
        <label htmlFor={id} className="ui-label">
          {displayName} API key
        </label>
        <SecretInput
          id={id}
          revealLabel={`Show the ${displayName} API key`}
          value={key}
          autoComplete="off"
          spellCheck={false}
          maxLength={256}
          aria-describedby={invalid ? `${hintId} ${errorId}` : hintId}
          aria-invalid={invalid ? true : undefined}
          onChange={(event) => setKey(event.target.value)}
        />
        <p id={hintId} className="ui-hint">
          {displayName} checks the key before anything is stored; it is kept encrypted and never shown again.
        </p>
        {invalid ? (
          <p id={errorId} className="ui-field-error">
            {invalid}
          </p>
        ) : null}
      </div>
      <Button type="submit" variant="primary" pending={connect.isPending}>
        {reconnect ? `Reconnect ${displayName}` : `Connect ${displayName}`}
      </Button>
      <ActionProblem action={connect} />
    </form>
  );
}
