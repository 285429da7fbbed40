"use client";

import { browserTimeZone } from "@fleet/ui";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useId, useState } from "react";
import { describeCron } from "../../lib/cron-text.ts";
import { useFieldErrors } from "../../lib/field-errors.ts";
import { statusOf } from "../../lib/problem.ts";
import { useTRPC } from "../../lib/trpc.ts";
import { changesOf, type Field, problemsOf, type ScheduleDialogMode, type Values } from "./schedule-form.ts";
import { conflictHint, effective } from "./schedule-labels.ts";
import { useScheduleUpdate } from "./use-schedule-update.ts";

/**
 * The schedule form's values and errors, and its submit: a create, or an edit that sends only what
 * changed, carrying the version it started from (a 412 means the schedule changed: `onStale` says so and
 * the list is read again).
 */
export function useScheduleForm({
  mode,
  workspaceId,
  fleetId,
  onStale,
  onDone,
}: {
  mode: ScheduleDialogMode;
  workspaceId: string;
  fleetId: string;
  onStale: (hint: string) => void;
  onDone: (message: string) => void;
}) {
  const formId = useId();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const schedule = mode.kind === "edit" ? mode.schedule : null;
  const start = schedule ? effective(schedule) : null;
  const [values, setValues] = useState<Values>({
    cron: start?.cron ?? "",
    timezone: start?.timezone ?? browserTimeZone(),
    message: start?.message ?? "",
    once: schedule?.once ?? false,
  });
  const [errors, setErrors, clearError] = useFieldErrors<Field>();
  const listKey = trpc.schedules.list.queryKey({ workspace_id: workspaceId, fleet_id: fleetId });
  const create = useMutation(
    trpc.schedules.create.mutationOptions({
      onSuccess: () => queryClient.invalidateQueries({ queryKey: listKey }),
    }),
  );
  const update = useScheduleUpdate(workspaceId, fleetId);
  const pending = create.isPending || update.isPending;
  const error = create.error ?? update.error;
  const set = (field: keyof Values) => (value: string | boolean) => {
    setValues((current) => ({ ...current, [field]: value }));
    if (field !== "once") clearError(field);
  };
  const words = describeCron(values.cron);

  function submit() {
    const found = problemsOf(values);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    if (schedule === null) {
      create.mutate(
        {
          workspace_id: workspaceId,
          fleet_id: fleetId,
          cron: values.cron.trim(),
          timezone: values.timezone,
          message: values.message,
          once: values.once,
        },
        { onSuccess: () => onDone(`Created the schedule: ${words ?? values.cron}.`) },
      );
      return;
    }
    const changes = changesOf(schedule, values);
    if (Object.keys(changes).length === 0) {
      onDone("Nothing changed.");
      return;
    }
    update.mutate(
      {
        workspace_id: workspaceId,
        fleet_id: fleetId,
        schedule_id: schedule.schedule_id,
        if_match: schedule.etag,
        ...changes,
      },
      {
        onSuccess: () =>
          onDone(
            schedule.source === "trigger" ? "Saved the override of the schedule." : "Saved the schedule.",
          ),
        onError: (refusal) => {
          if (statusOf(refusal) === 412) onStale(conflictHint(refusal) ?? "The schedule changed.");
        },
      },
    );
  }

  return { formId, schedule, values, set, errors, words, create, update, pending, error, submit };
}
