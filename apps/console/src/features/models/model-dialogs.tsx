"use client";

import { type AdminModel, modelProviders } from "@fleet/contracts";
import { ConfirmDialog, SelectField, TextField } from "@fleet/ui";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useId, useState } from "react";
import { FormDialog } from "../../components/form-dialog.tsx";
import { problemOf } from "../../lib/problem.ts";
import { useTRPC } from "../../lib/trpc.ts";
import { dollarsText, parseDollars } from "./money.ts";
import { providerLabel } from "./urls.ts";
import "../../styles/inline.css";
import "./model-form.css";

const PRICE_FIELDS = [
  ["input_nanos_per_mtok", "Input price"],
  ["cached_input_nanos_per_mtok", "Cached input price"],
  ["output_nanos_per_mtok", "Output price"],
] as const;
type PriceField = (typeof PRICE_FIELDS)[number][0];
type Field = "provider" | "model_id" | "context_cap_tokens" | PriceField;
type Values = Record<Field, string>;

const MODEL_ID = /^[A-Za-z0-9][A-Za-z0-9._:/@+-]{0,199}$/;

/** Each field's problem, refusing on the field what the API would refuse, before anything is sent. */
function check(values: Values, creating: boolean): Partial<Record<Field, string>> {
  const problems: Partial<Record<Field, string>> = {};
  if (creating && !MODEL_ID.test(values.model_id.trim())) {
    problems.model_id = "The model's name at its provider: letters, digits and . _ : / @ + -, no spaces.";
  }
  const context = values.context_cap_tokens.trim().replace(/[,_\s]/g, "");
  if (!/^\d{1,10}$/.test(context) || Number(context) < 1 || Number(context) > 2_147_483_647) {
    problems.context_cap_tokens = "A whole number of tokens, from 1 to 2,147,483,647, such as 200000.";
  }
  for (const [field] of PRICE_FIELDS) {
    if (parseDollars(values[field]) === null) {
      problems[field] = "Dollars per million tokens, such as 3 or 0.075 (at most 9 decimals).";
    }
  }
  return problems;
}

/** Adds a catalogue row, or changes one's size and prices (provider and name name the row). */
export function ModelDialog({ model, onClose }: { model: AdminModel | null; onClose: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const formId = useId();
  const creating = model === null;
  const [values, setValues] = useState<Values>({
    provider: model?.provider ?? "anthropic",
    model_id: model?.model_id ?? "",
    context_cap_tokens: model ? String(model.context_cap_tokens) : "",
    input_nanos_per_mtok: model ? dollarsText(model.input_nanos_per_mtok) : "",
    cached_input_nanos_per_mtok: model ? dollarsText(model.cached_input_nanos_per_mtok) : "",
    output_nanos_per_mtok: model ? dollarsText(model.output_nanos_per_mtok) : "",
  });
  const [problems, setProblems] = useState<Partial<Record<Field, string>>>({});
  const done = {
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: trpc.models.pathKey() });
      onClose();
    },
  };
  const create = useMutation(trpc.models.create.mutationOptions(done));
  const update = useMutation(trpc.models.update.mutationOptions(done));
  const mutation = creating ? create : update;

  function set(field: Field, value: string) {
    setValues((current) => ({ ...current, [field]: value }));
    // A corrected field drops its stale problem at once.
    if (problems[field]) setProblems((current) => ({ ...current, [field]: undefined }));
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    const found = check(values, creating);
    setProblems(found);
    if (Object.values(found).some(Boolean)) return;
    const sizes = {
      context_cap_tokens: Number(values.context_cap_tokens.trim().replace(/[,_\s]/g, "")),
      input_nanos_per_mtok: parseDollars(values.input_nanos_per_mtok) ?? 0,
      cached_input_nanos_per_mtok: parseDollars(values.cached_input_nanos_per_mtok) ?? 0,
      output_nanos_per_mtok: parseDollars(values.output_nanos_per_mtok) ?? 0,
    };
    if (model === null) {
      create.mutate({ provider: values.provider, model_id: values.model_id.trim(), ...sizes });
    } else {
      update.mutate({ uid: model.uid, ...sizes });
    }
  }

  return (
    <FormDialog
      open
      onClose={onClose}
      formId={formId}
      submitLabel={creating ? "Add model" : "Save changes"}
      mutation={mutation}
      title={creating ? "Add a model" : `Edit ${model.model_id}`}
      description={
        creating
          ? "Tenants can choose any catalogue model for their provider; each run is charged at these prices."
          : `${providerLabel(model.provider)} · the provider and name identify the row; to rename, add a new model.`
      }
    >
      <form id={formId} onSubmit={submit} noValidate className="model-form">
        {creating ? (
          <>
            <SelectField
              label="Provider"
              value={values.provider}
              onChange={(event) => set("provider", event.target.value)}
            >
              {modelProviders.map((provider) => (
                <option key={provider} value={provider}>
                  {providerLabel(provider)}
                </option>
              ))}
            </SelectField>
            <TextField
              label="Model name"
              hint="As the provider names it, such as claude-sonnet-4-5 or gpt-4.1-mini."
              value={values.model_id}
              error={problems.model_id ?? null}
              autoComplete="off"
              spellCheck={false}
              onChange={(event) => set("model_id", event.target.value)}
            />
          </>
        ) : null}
        <TextField
          label="Context size (tokens)"
          inputMode="numeric"
          value={values.context_cap_tokens}
          error={problems.context_cap_tokens ?? null}
          onChange={(event) => set("context_cap_tokens", event.target.value)}
        />
        {PRICE_FIELDS.map(([field, label]) => (
          <TextField
            key={field}
            label={`${label} (USD per million tokens)`}
            inputMode="decimal"
            value={values[field]}
            error={problems[field] ?? null}
            onChange={(event) => set(field, event.target.value)}
          />
        ))}
      </form>
    </FormDialog>
  );
}

/** Removing a row: refused while a default (the platform's or a tenant's) uses it, and the dialog says so. */
export function DeleteModelDialog({ model, onClose }: { model: AdminModel; onClose: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const remove = useMutation(
    trpc.models.delete.mutationOptions({
      onSuccess: async () => {
        await queryClient.invalidateQueries({ queryKey: trpc.models.pathKey() });
        onClose();
      },
    }),
  );
  return (
    <ConfirmDialog
      open
      title={`Remove model ${model.model_id}?`}
      confirmLabel="Remove model"
      pending={remove.isPending}
      problem={remove.error ? problemOf(remove.error) : null}
      onCancel={onClose}
      onConfirm={() => remove.mutate({ uid: model.uid })}
    >
      <p className="dialog-text">
        Tenants can no longer choose <strong>{model.model_id}</strong> ({providerLabel(model.provider)}).
        While it is the platform default's model or any tenant's provider model, the catalogue refuses to
        remove it: point those at another model first.
      </p>
    </ConfirmDialog>
  );
}
