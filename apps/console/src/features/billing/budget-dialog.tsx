"use client";

import { Button, TextField } from "@fleet/ui";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useId, useState } from "react";
import { FormDialog } from "../../components/form-dialog.tsx";
import { useTRPC } from "../../lib/trpc.ts";

const NANOS = 1_000_000_000;

/** Dollars as typed ("12.50", "" for none) to nanos; undefined when it is not an amount. */
export function nanosOf(text: string): number | null | undefined {
  const trimmed = text.trim();
  if (trimmed === "") return null;
  if (!/^\d+(\.\d{1,9})?$/.test(trimmed)) return undefined;
  const nanos = Math.round(Number(trimmed) * NANOS);
  return Number.isSafeInteger(nanos) ? nanos : undefined;
}

const dollarsOf = (nanos: number | null) => (nanos === null ? "" : String(nanos / NANOS));

/** "50, 80, 100" to [50, 80, 100]; undefined when it is not such a list. */
export function percentsOf(text: string): number[] | undefined {
  const parts = text
    .split(",")
    .map((part) => part.trim())
    .filter((part) => part !== "");
  if (!parts.every((part) => /^\d{1,4}$/.test(part))) return undefined;
  return parts.map(Number);
}

/**
 * The fleet's budget: per month (UTC), per run, and the percents of the monthly budget at which alerts go
 * out. An empty amount removes that budget. Opened from the fleet page's header.
 */
export function BudgetButton({ fleet }: { fleet: { workspace_id: string; fleet_id: string; name: string } }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button variant="secondary" aria-label={`Budget of fleet ${fleet.name}`} onClick={() => setOpen(true)}>
        Budget
      </Button>
      {open ? <BudgetDialog fleet={fleet} onClose={() => setOpen(false)} /> : null}
    </>
  );
}

function BudgetDialog({
  fleet,
  onClose,
}: {
  fleet: { workspace_id: string; fleet_id: string; name: string };
  onClose: () => void;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const formId = useId();
  const ref = { workspace_id: fleet.workspace_id, fleet_id: fleet.fleet_id };
  const current = useQuery(trpc.billing.getBudget.queryOptions(ref));
  const [edits, setEdits] = useState<{ period?: string; run?: string; percents?: string }>({});
  const [invalid, setInvalid] = useState<{ period?: string; run?: string; percents?: string }>({});
  const save = useMutation(
    trpc.billing.updateBudget.mutationOptions({
      onSuccess: async () => {
        await queryClient.invalidateQueries({ queryKey: trpc.billing.pathKey() });
        onClose();
      },
    }),
  );
  const data = current.data;
  const period = edits.period ?? dollarsOf(data?.period_budget_nanos ?? null);
  const run = edits.run ?? dollarsOf(data?.run_budget_nanos ?? null);
  const percents = edits.percents ?? (data?.alert_percents ?? [50, 80, 100]).join(", ");

  function submit(event: FormEvent) {
    event.preventDefault();
    const periodNanos = nanosOf(period);
    const runNanos = nanosOf(run);
    const alertPercents = percentsOf(percents);
    const problems = {
      ...(periodNanos === undefined
        ? { period: "An amount in dollars, such as 25 or 12.50; empty for none." }
        : {}),
      ...(runNanos === undefined ? { run: "An amount in dollars, such as 2 or 0.75; empty for none." } : {}),
      ...(alertPercents === undefined
        ? { percents: "Whole percents separated by commas, such as 50, 80, 100." }
        : {}),
    };
    setInvalid(problems);
    if (periodNanos === undefined || runNanos === undefined || alertPercents === undefined) return;
    save.mutate({
      ...ref,
      period_budget_nanos: periodNanos,
      run_budget_nanos: runNanos,
      alert_percents: alertPercents,
    });
  }

  return (
    <FormDialog
      open
      onClose={() => {
        save.reset();
        onClose();
      }}
      formId={formId}
      submitLabel="Save budget"
      mutation={save}
      title={`Budget of ${fleet.name}`}
      description="A fleet that has spent its monthly budget takes no new work until the budget is raised or the month (UTC) ends; a run that reaches its cap is told to stop. Alerts go to the fleet's stream and the workspace's webhook, once each per month."
    >
      <form id={formId} onSubmit={submit} noValidate>
        <TextField
          label="Budget per month (USD)"
          optional
          inputMode="decimal"
          value={period}
          error={invalid.period ?? null}
          hint={data ? `Spent this month: $${(data.period_spend_nanos / NANOS).toFixed(2)}` : undefined}
          onChange={(event) => {
            setEdits({ ...edits, period: event.target.value });
            setInvalid({ ...invalid, period: undefined });
          }}
        />
        <TextField
          label="Cap per run (USD)"
          optional
          inputMode="decimal"
          value={run}
          error={invalid.run ?? null}
          onChange={(event) => {
            setEdits({ ...edits, run: event.target.value });
            setInvalid({ ...invalid, run: undefined });
          }}
        />
        <TextField
          label="Alert at (percent of the monthly budget)"
          optional
          value={percents}
          error={invalid.percents ?? null}
          onChange={(event) => {
            setEdits({ ...edits, percents: event.target.value });
            setInvalid({ ...invalid, percents: undefined });
          }}
        />
      </form>
    </FormDialog>
  );
}
