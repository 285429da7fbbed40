"use client";

import { cronProblem, cronSentence, isFieldCountProblem } from "@fleet/contracts/fleet-libraries/cron";
import { SCHEDULE_MESSAGE_LIMIT } from "@fleet/contracts/schedules/values";
import {
  Button,
  Callout,
  Dialog,
  FieldError,
  FormDialogFooter,
  ProblemAlert,
  TextField,
  TimeZoneField,
} from "@fleet/ui";
import { forgetOnEdit } from "../../lib/field-errors.ts";
import { problemOf, statusOf } from "../../lib/problem.ts";
import type { Field, ScheduleDialogMode } from "./schedule-form.ts";
import { conflictHint } from "./schedule-labels.ts";
import { useScheduleForm } from "./use-schedule-form.ts";
import "../../styles/inline.css";
import "./schedule-dialog.css";

/**
 * What the line under the cron says of an expression it cannot read in words: while fewer or more than
 * five fields are typed, that it is not one yet; else the field at fault in the API's own words ("Cron
 * minute must be 0–59, not \"61\"."), unless the field's error already says it.
 */
function cronHint(cron: string, error: string | undefined): string | null {
  const problem = cronProblem(cron);
  if (problem === null || isFieldCountProblem(problem)) return "Not a five-field expression yet.";
  return error ? null : cronSentence(problem);
}

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
  const { formId, schedule, values, set, errors, words, create, update, pending, error, submit } =
    useScheduleForm({
      mode,
      workspaceId,
      fleetId,
      onStale,
      onDone,
    });

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
                cronHint(values.cron, errors.cron)
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
