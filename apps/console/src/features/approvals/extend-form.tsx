"use client";

import { Button, SelectField } from "@fleet/ui";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useId, useState } from "react";
import { ActionProblem } from "../../components/query-problem.tsx";
import { forgetOnEdit } from "../../lib/field-errors.ts";
import { useTRPC } from "../../lib/trpc.ts";
import type { Gate } from "./answer.ts";
import "./answer-form.css";
import "./extend-form.css";

const choices = [
  { ms: 15 * 60_000, label: "15 minutes" },
  { ms: 30 * 60_000, label: "30 minutes" },
  { ms: 60 * 60_000, label: "1 hour" },
  { ms: 4 * 60 * 60_000, label: "4 hours" },
];

/**
 * Moves a pending gate's deadline later, once, with a reason the audit log keeps. The rule's ceiling is the
 * API's to judge: a refusal says what it allows.
 */
export function ExtendForm({ gate, onDone }: { gate: Gate; onDone: (message: string | null) => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const reasonId = useId();
  const [by, setBy] = useState(choices[1]!.ms);
  const [reason, setReason] = useState("");
  const [missing, setMissing] = useState(false);
  const extend = useMutation(
    trpc.approvals.extend.mutationOptions({
      onSuccess: async () => {
        await queryClient.invalidateQueries({ queryKey: trpc.approvals.pathKey() });
        onDone(`Extended by ${choices.find((choice) => choice.ms === by)?.label ?? "the time chosen"}.`);
      },
    }),
  );
  return (
    <form
      className="gate-extend"
      aria-label="Extend the deadline"
      noValidate
      onInput={forgetOnEdit(extend)}
      onSubmit={(event) => {
        event.preventDefault();
        const text = reason.trim();
        setMissing(text === "");
        if (text === "") return;
        extend.mutate({
          workspace_id: gate.workspace_id,
          gate_id: gate.gate_id,
          extend_ms: by,
          reason: text,
        });
      }}
    >
      <SelectField
        label="Extend by"
        value={String(by)}
        onChange={(event) => setBy(Number(event.target.value))}
      >
        {choices.map((choice) => (
          <option key={choice.ms} value={choice.ms}>
            {choice.label}
          </option>
        ))}
      </SelectField>
      <div className="ui-field">
        <label htmlFor={reasonId} className="ui-label">
          Why it needs longer
        </label>
        <input
          id={reasonId}
          className="ui-input"
          value={reason}
          maxLength={2000}
          aria-invalid={missing || undefined}
          aria-describedby={missing ? `${reasonId}-error` : undefined}
          onChange={(event) => {
            setReason(event.target.value);
            setMissing(false);
          }}
        />
        {missing ? (
          <p id={`${reasonId}-error`} className="ui-field-error">
            Say why: the reason is kept in the audit log.
          </p>
        ) : null}
      </div>
      <ActionProblem action={extend} />
      <div className="gate-answer__buttons">
        <Button type="submit" variant="primary" pending={extend.isPending}>
          Extend deadline
        </Button>
        <Button variant="ghost" onClick={() => onDone(null)}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
