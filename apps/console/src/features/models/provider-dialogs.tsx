"use client";

import { type TenantProviderChoice, tenantProviderChoices } from "@fleet/contracts";
import { ConfirmDialog, ProblemAlert, SelectField, TextField } from "@fleet/ui";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useId, useState } from "react";
import { FormDialog } from "../../components/form-dialog.tsx";
import { problemOf } from "../../lib/problem.ts";
import { type ApiError, type RouterOutputs, useTRPC } from "../../lib/trpc.ts";
import { providerProblemInWords } from "./provider-words.ts";
import { providerLabel } from "./urls.ts";

/** A refusal of the provider routes, in words (never the code). */
export function inWords(error: ApiError) {
  return providerProblemInWords(problemOf(error));
}

export type CurrentProvider = RouterOutputs["providers"]["getTenant"];

export function ProviderDialog({
  current,
  onClose,
}: {
  current: CurrentProvider | null;
  onClose: () => void;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const formId = useId();
  const [provider, setProvider] = useState<TenantProviderChoice>(current?.provider ?? "platform");
  const [model, setModel] = useState(current?.model ?? "");
  const [apiKey, setApiKey] = useState("");
  const [baseUrl, setBaseUrl] = useState(current?.base_url ?? "");
  const [problems, setProblems] = useState<{ model?: string; api_key?: string; base_url?: string }>({});
  // The catalogue's models of the chosen provider (any provider for the platform default's).
  const models = useQuery(
    trpc.models.list.queryOptions(provider === "platform" ? { limit: 50 } : { provider, limit: 50 }),
  );
  const save = useMutation(
    trpc.providers.replaceTenant.mutationOptions({
      onSuccess: async () => {
        await queryClient.invalidateQueries({ queryKey: trpc.providers.pathKey() });
        onClose();
      },
    }),
  );
  const needsKey = provider === "anthropic" || provider === "openai";
  const keepsKey =
    current?.has_api_key && current.provider === provider && (current.base_url ?? "") === baseUrl.trim();

  const modelOptions = models.data?.models ?? [];
  // Only a catalogue model may be chosen (400 UZ-PROVIDER-004), and operators keep the catalogue: with
  // none of this provider's there, the field says so rather than asking for a choice it does not offer.
  const noModels = models.data !== undefined && modelOptions.length === 0;
  const noModelsWords = `The catalogue holds no ${provider === "platform" ? "" : `${providerLabel(provider)} `}model yet: an operator adds models to it (the catalogue below, with model:admin).`;

  function submit(event: FormEvent) {
    event.preventDefault();
    const found = {
      ...(model === "" ? { model: noModels ? noModelsWords : "Choose the model your fleets use." } : {}),
      ...(needsKey && apiKey.trim() === "" && !keepsKey ? { api_key: "Paste this provider's API key." } : {}),
      ...(provider === "openai_compatible" && baseUrl.trim() === ""
        ? { base_url: "The endpoint's address, such as https://llm.example.com/v1." }
        : {}),
    };
    setProblems(found);
    if (Object.keys(found).length > 0) return;
    save.mutate({
      provider,
      model,
      ...(provider !== "platform" && apiKey.trim() !== "" ? { api_key: apiKey.trim() } : {}),
      ...(provider === "openai_compatible" ? { base_url: baseUrl.trim() } : {}),
    });
  }

  return (
    <FormDialog
      open
      onClose={onClose}
      formId={formId}
      submitLabel="Save provider"
      mutation={{ isPending: save.isPending, error: null, reset: () => {} }}
      title="Set your provider"
      description="Where your fleets' model calls go, and on whose key. Your key is sealed and never shown again."
    >
      <form id={formId} onSubmit={submit} noValidate className="model-form">
        <SelectField
          label="Provider"
          value={provider}
          onChange={(event) => {
            setProvider(event.target.value as TenantProviderChoice);
            setModel("");
            setProblems({});
            save.reset();
          }}
        >
          {tenantProviderChoices.map((choice) => (
            <option key={choice} value={choice}>
              {providerLabel(choice)}
            </option>
          ))}
        </SelectField>
        <SelectField
          label="Model"
          value={model}
          aria-invalid={problems.model ? true : undefined}
          hint={
            problems.model ??
            (models.isPending
              ? "Loading the catalogue…"
              : models.error
                ? "The catalogue could not be read: close this and try again."
                : noModels
                  ? noModelsWords
                  : undefined)
          }
          onChange={(event) => {
            setModel(event.target.value);
            setProblems((found) => ({ ...found, model: undefined }));
          }}
        >
          <option value="">Choose a model</option>
          {modelOptions.map((option) => (
            <option key={`${option.provider}/${option.id}`} value={option.id}>
              {option.id}
              {provider === "platform" ? ` (${providerLabel(option.provider)})` : ""}
            </option>
          ))}
        </SelectField>
        {provider === "openai_compatible" ? (
          <TextField
            label="Base URL"
            type="url"
            placeholder="https://llm.example.com/v1"
            hint="An https address of a host on the public internet."
            value={baseUrl}
            error={problems.base_url ?? null}
            autoComplete="off"
            spellCheck={false}
            onChange={(event) => {
              setBaseUrl(event.target.value);
              setProblems((found) => ({ ...found, base_url: undefined }));
              save.reset();
            }}
          />
        ) : null}
        {provider !== "platform" ? (
          <TextField
            label="API key"
            type="password"
            optional={!needsKey || Boolean(keepsKey)}
            hint={keepsKey ? "Leave empty to keep the key you set before." : undefined}
            value={apiKey}
            error={problems.api_key ?? null}
            autoComplete="off"
            spellCheck={false}
            onChange={(event) => {
              setApiKey(event.target.value);
              setProblems((found) => ({ ...found, api_key: undefined }));
            }}
          />
        ) : null}
      </form>
      {save.error ? <ProblemAlert problem={inWords(save.error)} /> : null}
    </FormDialog>
  );
}

export function RemoveProviderDialog({ onClose }: { onClose: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const remove = useMutation(
    trpc.providers.deleteTenant.mutationOptions({
      onSuccess: async () => {
        await queryClient.invalidateQueries({ queryKey: trpc.providers.pathKey() });
        onClose();
      },
    }),
  );
  return (
    <ConfirmDialog
      open
      title="Remove your provider?"
      confirmLabel="Remove provider"
      pending={remove.isPending}
      problem={remove.error ? inWords(remove.error) : null}
      onCancel={onClose}
      onConfirm={() => remove.mutate()}
    >
      <p className="dialog-text">
        Your provider and its sealed key are removed; your fleets' next runs use the platform default provider
        and key.
      </p>
    </ConfirmDialog>
  );
}
