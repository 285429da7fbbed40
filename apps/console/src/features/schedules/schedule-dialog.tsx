"use client";

import { cronProblem, isTimeZone } from "@fleet/contracts/fleet-libraries/cron";
import { SCHEDULE_MESSAGE_LIMIT } from "@fleet/contracts/schedules/values";
import {
  Button,
  browserTimeZone,
  Callout,
  Dialog,
  FieldError,
  FormDialogFooter,
  ProblemAlert,
  TextField,
  TimeZoneField,
} from "@fleet/ui";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useId, useState } from "react";
import { describeCron } from "../../lib/cron-text.ts";
import { forgetOnEdit, useFieldErrors } from "../../lib/field-errors.ts";
import { problemOf, statusOf } from "../../lib/problem.ts";
import { useTRPC } from "../../lib/trpc.ts";
import { conflictHint, effective, type ScheduleItem } from "./schedule-labels.ts";
import { useScheduleUpdate } from "./use-schedule-update.ts";

type Field = "cron" | "timezone" | "message";

interface Values {
  cron: string;
  timezone: string;
  message: string;
  once: boolean;
}

function problemsOf(values: Values): Partial<Record<Field, string>> {
  const cron = cronProblem(values.cron);
  return {
    ...(cron ? { cron: `Cron ${cron}.` } : {}),
    ...(isTimeZone(values.timezone) ? {} : { timezone: "Choose a time zone from the list." }),
    ...(values.message.trim() === ""
      ? { message: "Write the message the fleet receives on each fire." }
      : values.message.length > SCHEDULE_MESSAGE_LIMIT
        ? { message: `At most ${SCHEDULE_MESSAGE_LIMIT} characters.` }
        : {}),
  };
}

/**
 * What an edit sends: only the fields that change. On a trigger schedule the change is an override of the
 * fleet's document, so going back to the document's value clears the override's field (null).
 */
function changesOf(schedule: ScheduleItem, values: Values): Partial<Record<Field, string | null>> {
  const now = effective(schedule);
  const changes: Partial<Record<Field, string | null>> = {};
  for (const field of ["cron", "timezone", "message"] as const) {
    const value = field === "cron" ? values.cron.trim() : values[field];
    if (schedule.source === "trigger") {
      const overridden = schedule.override?.[field] != null;
      if (value === schedule[field]) {
        if (overridden) changes[field] = null;
      } else if (value !== now[field]) changes[field] = value;
    } else if (value !== schedule[field]) changes[field] = value;
  }
  return changes;
}

export type ScheduleDialogMode = { kind: "create" } | { kind: "edit"; schedule: ScheduleItem };

/**
 * Creates or edits a schedule: cron with its meaning in words as you type, a time zone, the message, and
 * (on create) whether it fires once. An edit carries the version it started from; if the schedule changed
 * meanwhile the API answers 412, the list is read again and the form starts over from what is current.
 */
export function ScheduleDialog({
  mode,
  workspaceId,
  fleetId,
  fleetName,
  notice,
  onClose,
  onStale,
  onDone,
}: {
  mode: ScheduleDialogMode;
  workspaceId: string;
  fleetId: string;
  fleetName: string;
  /** Why the form was reset (the schedule changed under an edit). */
  notice: string | null;
  onClose: () => void;
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

  const fromDocument = (field: Field, label: string) =>
    schedule?.source === "trigger" ? (
      <p className="schedule-form__document">
        The fleet's document says <code>{schedule[field]}</code>
        {values[field] !== schedule[field] ? (
          <>
            {" · "}
            <button type="button" className="link-button" onClick={() => set(field)(schedule[field])}>
              Use the document's {label}
            </button>
          </>
        ) : null}
      </p>
    ) : null;

  const hint = error ? conflictHint(error) : null;
  const cronId = `${formId}-cron`;
  const messageId = `${formId}-message`;
  return (
    <Dialog
      open
      onClose={onClose}
      dismissible={!pending}
      size="wide"
      title={schedule ? "Edit schedule" : `Schedule ${fleetName}`}
      description={
        schedule?.source === "trigger"
          ? "This schedule comes from the fleet's document. Your changes are kept as an override of it; use the document's value to drop a field's override."
          : schedule
            ? "The change reaches the scheduler within moments; the sync pill shows when it has."
            : "On each fire the fleet receives the message as a cron event, as if someone had sent it."
      }
      footer={
        <FormDialogFooter
          formId={formId}
          submitLabel={schedule ? "Save schedule" : "Create schedule"}
          pending={pending}
          onCancel={onClose}
        />
      }
    >
      {notice ? (
        <Callout tone="warning">
          <p>{notice}</p>
        </Callout>
      ) : null}
      <form
        id={formId}
        className="schedule-form"
        noValidate
        onInput={forgetOnEdit(create, update)}
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
      >
        <div className="schedule-form__row">
          <div className="schedule-form__cell">
            <TextField
              id={cronId}
              label="Cron"
              value={values.cron}
              onChange={(event) => set("cron")(event.target.value)}
              className="ui-input--mono"
              placeholder="0 9 * * 1-5"
              autoComplete="off"
              spellCheck={false}
              hint="Five fields: minute, hour, day of month, month, day of week."
              error={errors.cron ?? null}
            />
            <p className="schedule-form__words" aria-live="polite" data-valid={words !== null || undefined}>
              {words ? (
                <>
                  <span className="ui-visually-hidden">Runs: </span>
                  {words}
                </>
              ) : values.cron.trim() ? (
                "Not a five-field expression yet."
              ) : (
                "Type an expression to read it in words."
              )}
            </p>
            {fromDocument("cron", "cron")}
          </div>
          <div className="schedule-form__cell">
            <TimeZoneField
              label="Time zone"
              value={values.timezone}
              onChange={set("timezone")}
              hint="The cron is read in this zone, daylight saving included."
            />
            {errors.timezone ? <FieldError>{errors.timezone}</FieldError> : null}
            {fromDocument("timezone", "time zone")}
          </div>
        </div>
        <div className="ui-field">
          <label htmlFor={messageId} className="ui-label">
            Message
          </label>
          <textarea
            id={messageId}
            className="ui-textarea schedule-form__message"
            value={values.message}
            onChange={(event) => set("message")(event.target.value)}
            placeholder="Summarise yesterday's new issues."
            aria-invalid={errors.message ? true : undefined}
            aria-describedby={`${messageId}-hint${errors.message ? ` ${messageId}-error` : ""}`}
          />
          <p id={`${messageId}-hint`} className="ui-hint">
            What {fleetName} receives on each fire · {values.message.length} of {SCHEDULE_MESSAGE_LIMIT}{" "}
            characters
          </p>
          {errors.message ? <FieldError id={`${messageId}-error`}>{errors.message}</FieldError> : null}
          {fromDocument("message", "message")}
        </div>
        {schedule ? (
          schedule.once ? (
            <p className="ui-hint">Fires once, then removes itself.</p>
          ) : null
        ) : (
          <label className="schedule-form__once">
            <input
              type="checkbox"
              checked={values.once}
              onChange={(event) => set("once")(event.target.checked)}
            />
            Fire once, then remove the schedule
          </label>
        )}
      </form>
      {error && statusOf(error) !== 412 ? (
        <ProblemAlert problem={problemOf(error)} details={hint}>
          {hint ? (
            <Button size="sm" pending={pending} onClick={submit}>
              Try again
            </Button>
          ) : null}
        </ProblemAlert>
      ) : null}
    </Dialog>
  );
}
