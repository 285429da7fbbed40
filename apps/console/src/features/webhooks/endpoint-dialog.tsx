"use client";

import { FieldError, SelectField, TextField } from "@fleet/ui";
import { useMutation } from "@tanstack/react-query";
import { useId, useState } from "react";
import { FormDialog } from "../../components/form-dialog.tsx";
import { ShownOnceDialog } from "../../components/shown-once-dialog.tsx";
import { useTRPC } from "../../lib/trpc.ts";
import { type Endpoint, type EventTypeItem, endpointName } from "./endpoint.ts";
import { useWebhooksRefresh } from "./use-deliveries.ts";

interface Fleet {
  id: string;
  name: string;
}

interface EndpointDialogProps {
  open: boolean;
  workspace: { id: string; name: string };
  /** The endpoint to change; none: a new one. */
  endpoint: Endpoint | null;
  eventTypes: readonly EventTypeItem[];
  fleets: readonly Fleet[];
  onClose: () => void;
  onDone: (message: string) => void;
}

/** The secret a create or a rotation answered, shown once: "Done" forgets it. */
export function SecretShownOnce({
  endpoint,
  secret,
  onClose,
}: {
  endpoint: Endpoint;
  secret: string;
  onClose: () => void;
}) {
  const name = endpointName(endpoint);
  return (
    <ShownOnceDialog
      open
      onClose={onClose}
      title="Copy the signing secret"
      description={`Deliveries to ${name} are signed with this secret (Standard Webhooks: webhook-id, webhook-timestamp, webhook-signature). Verify each one with it before trusting its body.`}
      warning={
        <>
          <strong>This secret is shown only once.</strong> Store it where your receiver reads its
          configuration; to get a new one, rotate it.
        </>
      }
      label={`Signing secret of ${name}`}
      value={secret}
      copyLabel={`Copy the signing secret of ${name}`}
    />
  );
}

/**
 * Creates an endpoint (then reveals its secret once) or changes one. The event types are the catalogue's,
 * each with what it sends; the fleet filter names one of the workspace's fleets or none (every fleet).
 */
export function EndpointDialog({
  open,
  workspace,
  endpoint,
  eventTypes,
  fleets,
  onClose,
  onDone,
}: EndpointDialogProps) {
  const trpc = useTRPC();
  const formId = useId();
  const typesId = useId();
  const [typesError, setTypesError] = useState<string | null>(null);
  const refresh = useWebhooksRefresh();
  const create = useMutation(
    // The answer carries the secret: out of the mutation cache once the dialog lets go of it.
    trpc.webhookEndpoints.create.mutationOptions({ gcTime: 0, onSuccess: refresh }),
  );
  const update = useMutation(
    trpc.webhookEndpoints.update.mutationOptions({
      onSuccess: async (changed) => {
        await refresh();
        onDone(`Saved ${endpointName(changed)}.`);
        close();
      },
    }),
  );
  const mutation = endpoint ? update : create;

  function close() {
    create.reset();
    update.reset();
    setTypesError(null);
    onClose();
  }

  if (create.data) {
    const created = create.data;
    return (
      <SecretShownOnce
        endpoint={created}
        secret={created.secret}
        onClose={() => {
          onDone(`Created ${endpointName(created)}.`);
          close();
        }}
      />
    );
  }

  return (
    <FormDialog
      open={open}
      onClose={close}
      formId={formId}
      submitLabel={endpoint ? "Save endpoint" : "Create endpoint"}
      mutation={mutation}
      title={endpoint ? `Edit webhook endpoint ${endpointName(endpoint)}` : "Add a webhook endpoint"}
      description={`Events of the workspace ${workspace.name} are posted to this URL, signed, and retried for about three days until it answers 2xx.`}
      size="wide"
    >
      <form
        id={formId}
        // The form is drawn again for each endpoint, so its fields start from that endpoint's values.
        key={endpoint?.id ?? "new"}
        onSubmit={(event) => {
          event.preventDefault();
          const form = new FormData(event.currentTarget);
          const types = form.getAll("event_types").map(String) as Endpoint["event_types"];
          if (types.length === 0) {
            setTypesError("Choose at least one event type.");
            return;
          }
          setTypesError(null);
          const fields = {
            url: String(form.get("url") ?? "").trim(),
            description: String(form.get("description") ?? ""),
            event_types: types,
            fleet_id: String(form.get("fleet_id") ?? "") || null,
            enabled: form.get("enabled") === "on",
          };
          if (endpoint) update.mutate({ workspace_id: workspace.id, endpoint_id: endpoint.id, ...fields });
          else create.mutate({ workspace_id: workspace.id, ...fields });
        }}
      >
        <TextField
          label="URL"
          name="url"
          type="url"
          required
          maxLength={2048}
          autoComplete="off"
          defaultValue={endpoint?.url ?? ""}
          placeholder="https://hooks.example.com/fleet"
          hint="https, on a public address. It is checked again before every delivery."
        />
        <TextField
          label="Description"
          name="description"
          optional
          maxLength={1024}
          autoComplete="off"
          defaultValue={endpoint?.description ?? ""}
        />
        <fieldset
          className="webhook-form__types"
          aria-describedby={typesError ? `${typesId}-error` : undefined}
          onChange={() => setTypesError(null)}
        >
          <legend>Event types</legend>
          {eventTypes.map((item) => (
            <label key={item.type} className="webhook-form__type">
              <input
                type="checkbox"
                name="event_types"
                value={item.type}
                defaultChecked={
                  endpoint?.event_types.includes(item.type as Endpoint["event_types"][number]) ?? false
                }
              />
              <code>{item.type}</code>
              <span className="webhook-form__type-words">{item.description}</span>
            </label>
          ))}
          {typesError ? <FieldError id={`${typesId}-error`}>{typesError}</FieldError> : null}
        </fieldset>
        <SelectField
          label="Fleets"
          name="fleet_id"
          defaultValue={endpoint?.fleet_id ?? ""}
          hint="Only one fleet's events, or every fleet's of the workspace."
        >
          <option value="">All fleets</option>
          {fleets.map((fleet) => (
            <option key={fleet.id} value={fleet.id}>
              {fleet.name}
            </option>
          ))}
        </SelectField>
        <label className="webhook-form__enabled">
          <input type="checkbox" name="enabled" defaultChecked={endpoint?.enabled ?? true} />
          Enabled: deliver events to this endpoint
        </label>
      </form>
    </FormDialog>
  );
}
