"use client";

import { networkPolicies, sandboxTiers } from "@fleet/contracts";
import { FieldError, RadioCards, SelectField, TextField } from "@fleet/ui";
import { useId, useState } from "react";
import { FormDialog } from "../../components/form-dialog.tsx";
import { useFieldErrors } from "../../lib/field-errors.ts";
import {
  type NetworkPolicy,
  networkLabels,
  type RunnerView,
  type SandboxTier,
  tierLabels,
  tierMeaning,
} from "./status.ts";
import { useRunnerUpdate } from "./use-runner-update.ts";
import "../../styles/inline.css";
import "./policy-dialog.css";

const REGISTRY_LIMIT = 64;

/** The outcome in words: the stored worker count (clamped by the service) and the new verdict. */
function savedMessage(runner: RunnerView, askedWorkers: number): string {
  const stored = runner.assigned_policy?.worker_count ?? askedWorkers;
  const workers =
    stored === askedWorkers
      ? `${stored} ${stored === 1 ? "worker" : "workers"}.`
      : `Worker count stored as ${stored}: the service keeps it within 1–64 (you asked for ${askedWorkers}).`;
  const verdict = runner.degraded
    ? `The host is degraded under it: ${runner.degraded_reason ?? "no reason given"}.`
    : "The host meets it.";
  return `Saved the policy of ${runner.host_id}. ${workers} ${verdict}`;
}

/**
 * Re-assigns the runner's policy. The API answers the runner with the verdict recomputed against the
 * host's last report, and the worker count as stored (clamped into 1–64), which the page then shows.
 */
export function PolicyDialog({
  runner,
  open,
  onClose,
  onSaved,
}: {
  runner: RunnerView;
  open: boolean;
  onClose: () => void;
  onSaved: (message: string) => void;
}) {
  const formId = useId();
  const update = useRunnerUpdate(runner.runner_id);
  const current = runner.assigned_policy;
  const [tier, setTier] = useState<SandboxTier>(current?.sandbox_tier ?? "landlock_full");
  const [network, setNetwork] = useState<NetworkPolicy>(current?.network_policy ?? "allow_all");
  const [registries, setRegistries] = useState((current?.registry_allowlist ?? []).join("\n"));
  const [workers, setWorkers] = useState(String(current?.worker_count ?? 1));
  const [errors, setErrors, clearError] = useFieldErrors<"workers" | "registries">();

  function close() {
    update.reset();
    setErrors({});
    onClose();
  }

  function submit() {
    const count = Number(workers.trim());
    const list = registries
      .split("\n")
      .map((line) => line.trim())
      .filter(Boolean);
    const next = {
      ...(workers.trim() === "" || !Number.isInteger(count) ? { workers: "Enter a whole number." } : {}),
      ...(list.length > REGISTRY_LIMIT
        ? { registries: `At most ${REGISTRY_LIMIT} registries.` }
        : list.some((entry) => entry.length > 253)
          ? { registries: "Each registry is at most 253 characters." }
          : {}),
    };
    setErrors(next);
    if (next.workers || next.registries) return;
    update.mutate(
      {
        id: runner.runner_id,
        assigned_policy: {
          sandbox_tier: tier,
          network_policy: network,
          registry_allowlist: [...new Set(list)],
          worker_count: count,
        },
      },
      {
        onSuccess: (saved) => {
          onSaved(savedMessage(saved, count));
          close();
        },
      },
    );
  }

  const registriesId = `${formId}-registries`;
  return (
    <FormDialog
      open={open}
      onClose={close}
      formId={formId}
      submitLabel="Save policy"
      mutation={update}
      size="wide"
      title={`Policy of ${runner.host_id}`}
      description="The host learns the new policy at its next heartbeat; the verdict against its last report is immediate."
    >
      <form
        id={formId}
        className="policy-form"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
      >
        <RadioCards
          label="Sandbox tier"
          value={tier}
          onChange={setTier}
          choices={sandboxTiers.map((value) => ({
            value,
            label: tierLabels[value],
            description: tierMeaning[value],
          }))}
        />
        <div className="policy-form__row">
          <SelectField
            label="Network policy"
            value={network}
            onChange={(event) => setNetwork(event.target.value as NetworkPolicy)}
            hint="Anything but allow all needs the host to enforce egress."
          >
            {networkPolicies.map((value) => (
              <option key={value} value={value}>
                {networkLabels[value]}
              </option>
            ))}
          </SelectField>
          <TextField
            label="Worker count"
            inputMode="numeric"
            value={workers}
            onChange={(event) => {
              setWorkers(event.target.value);
              clearError("workers");
            }}
            hint="Leases the runner holds at once. The service keeps it within 1–64 and shows what it stored."
            error={errors.workers ?? null}
            autoComplete="off"
          />
        </div>
        <div className="ui-field">
          <label htmlFor={registriesId} className="ui-label">
            Registry allow-list <span className="ui-label__optional">(optional)</span>
          </label>
          <textarea
            id={registriesId}
            className="ui-textarea policy-form__registries"
            value={registries}
            onChange={(event) => {
              setRegistries(event.target.value);
              clearError("registries");
            }}
            spellCheck={false}
            aria-describedby={`${registriesId}-hint${errors.registries ? ` ${registriesId}-error` : ""}`}
            aria-invalid={errors.registries ? true : undefined}
            placeholder={"registry.npmjs.org\nghcr.io"}
          />
          <p id={`${registriesId}-hint`} className="ui-hint">
            One registry host per line, at most {REGISTRY_LIMIT}: where the fleets on this runner may fetch
            packages and images.
          </p>
          {errors.registries ? (
            <FieldError id={`${registriesId}-error`}>{errors.registries}</FieldError>
          ) : null}
        </div>
      </form>
    </FormDialog>
  );
}
