"use client";

import {
  ActionMenu,
  Badge,
  Button,
  ConfirmDialog,
  type MenuAction,
  PauseIcon,
  PlayIcon,
  PlusIcon,
  ProblemAlert,
  StatusBadge,
  TrashIcon,
  ZonedTime,
} from "@fleet/ui";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { DoneStatus } from "../../components/done-status.tsx";
import { ListLoading, ListProblem } from "../../components/query-problem.tsx";
import { usePageActions } from "../../lib/commands.tsx";
import { describeCron } from "../../lib/cron-text.ts";
import type { FleetView } from "../../lib/fleet-status.ts";
import { problemOf, statusOf } from "../../lib/problem.ts";
import { useShortcuts } from "../../lib/shortcuts.tsx";
import { useTRPC } from "../../lib/trpc.ts";
import { ScheduleDialog, type ScheduleDialogMode } from "./schedule-dialog.tsx";
import {
  conflictHint,
  effective,
  overrideParts,
  type ScheduleItem,
  scheduleStatusVariants,
  sourceLabels,
  syncVariants,
  until,
} from "./schedule-labels.ts";
import { useScheduleUpdate } from "./use-schedule-update.ts";

/** While a push is under way the pill follows it closely; otherwise the next fires move slowly. */
const SYNCING_POLL_MS = 1_500;
const IDLE_POLL_MS = 30_000;

function useNow(intervalMs: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs]);
  return now;
}

/**
 * The fleet's schedules, oldest first as the API lists them (a fleet holds at most 32): what each runs and
 * when it next fires in its own zone and in UTC, whether the scheduler holds it (the sync pill, with the
 * last error), where it came from, and the actions on it.
 */
export function SchedulesPanel({ fleet }: { fleet: FleetView }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const ids = { workspace_id: fleet.workspace_id, fleet_id: fleet.fleet_id };
  const list = useQuery(
    trpc.schedules.list.queryOptions(ids, {
      refetchInterval: (query) =>
        query.state.data?.items.some((item) => item.sync === "syncing" || item.status === "deleting")
          ? SYNCING_POLL_MS
          : IDLE_POLL_MS,
    }),
  );
  const now = useNow(30_000);
  const update = useScheduleUpdate(fleet.workspace_id, fleet.fleet_id);
  const sync = useMutation(
    trpc.schedules.sync.mutationOptions({
      onSettled: () => queryClient.invalidateQueries({ queryKey: trpc.schedules.list.queryKey(ids) }),
    }),
  );
  const [dialog, setDialog] = useState<ScheduleDialogMode | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<ScheduleItem | null>(null);
  const [done, setDone] = useState<string | null>(null);

  const openCreate = () => {
    setDone(null);
    setNotice(null);
    setDialog({ kind: "create" });
  };
  useShortcuts("Schedules", [{ key: "c", description: "Create a schedule", run: openCreate }]);
  usePageActions([{ label: "Create a schedule", keywords: "new cron", shortcut: "c", run: openCreate }]);

  const items = list.data?.items;
  // The dialog edits the schedule as the list now has it; a refetch after a 412 restarts the form.
  const editing =
    dialog?.kind === "edit" ? items?.find((item) => item.schedule_id === dialog.schedule.schedule_id) : null;
  const setStatus = (schedule: ScheduleItem, status: "active" | "paused") => {
    setDone(null);
    update.mutate(
      { ...ids, schedule_id: schedule.schedule_id, if_match: schedule.etag, status },
      { onSuccess: () => setDone(status === "paused" ? "Paused the schedule." : "Resumed the schedule.") },
    );
  };
  const rowUpdate = update.variables?.schedule_id;
  const failure = update.error ?? sync.error;

  return (
    <div className="schedules">
      <div className="schedules__toolbar">
        <p className="schedules__intro">
          Each fire sends {fleet.name} its message as a cron event. Times show in the schedule's zone and in
          UTC.
        </p>
        <div className="schedules__actions">
          <DoneStatus done={done} />
          <Button variant="primary" size="sm" icon={<PlusIcon />} aria-keyshortcuts="c" onClick={openCreate}>
            Create schedule
          </Button>
        </div>
      </div>
      {failure ? (
        <div className="schedules__problem">
          <ProblemAlert problem={problemOf(failure)} details={conflictHint(failure)}>
            <Button
              size="sm"
              onClick={() => {
                update.reset();
                sync.reset();
              }}
            >
              Dismiss
            </Button>
          </ProblemAlert>
        </div>
      ) : null}
      {list.error && items === undefined ? (
        <ListProblem query={list} retry="always" />
      ) : items === undefined ? (
        <ListLoading>Loading schedules…</ListLoading>
      ) : items.length === 0 ? (
        <div className="empty-state empty-state--compact">
          <p className="empty-state__title">No schedules yet</p>
          <p className="empty-state__text">
            Schedule a message to wake {fleet.name} at set times; triggers in its document show here too.
          </p>
        </div>
      ) : (
        <div className="ui-table-scroll">
          <table className="ui-table schedules-table">
            <caption className="ui-visually-hidden">
              Schedules of the fleet {fleet.name}, oldest first
            </caption>
            <thead>
              <tr>
                <th scope="col">Schedule</th>
                <th scope="col">Status</th>
                <th scope="col">Sync</th>
                <th scope="col">Next fire</th>
                <th scope="col">Source</th>
                <th scope="col" data-actions="">
                  <span className="ui-visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {items.map((schedule) => (
                <ScheduleRow
                  key={schedule.schedule_id}
                  schedule={schedule}
                  now={now}
                  pending={update.isPending && rowUpdate === schedule.schedule_id}
                  syncing={sync.isPending && sync.variables?.schedule_id === schedule.schedule_id}
                  onStatus={(status) => setStatus(schedule, status)}
                  onEdit={() => {
                    setDone(null);
                    setNotice(null);
                    setDialog({ kind: "edit", schedule });
                  }}
                  onSync={() => {
                    setDone(null);
                    sync.mutate(
                      { ...ids, schedule_id: schedule.schedule_id },
                      {
                        onSuccess: (pushed) =>
                          setDone(
                            pushed.sync === "synced"
                              ? "Synced: the scheduler holds the schedule."
                              : "Pushed again: the scheduler has not confirmed yet.",
                          ),
                      },
                    );
                  }}
                  onDelete={() => {
                    setDone(null);
                    setDeleting(schedule);
                  }}
                />
              ))}
            </tbody>
          </table>
        </div>
      )}
      {dialog?.kind === "create" || editing ? (
        <ScheduleDialog
          key={editing ? `${editing.schedule_id}:${editing.etag}` : "create"}
          mode={editing ? { kind: "edit", schedule: editing } : { kind: "create" }}
          workspaceId={fleet.workspace_id}
          fleetId={fleet.fleet_id}
          fleetName={fleet.name}
          notice={notice}
          onClose={() => setDialog(null)}
          onStale={setNotice}
          onDone={(message) => {
            setDone(message);
            setDialog(null);
          }}
        />
      ) : null}
      {deleting ? (
        <DeleteScheduleDialog
          schedule={deleting}
          ids={ids}
          onClose={() => setDeleting(null)}
          onDeleted={() => setDone("Deleted the schedule.")}
        />
      ) : null}
    </div>
  );
}

function ScheduleRow({
  schedule,
  now,
  pending,
  syncing,
  onStatus,
  onEdit,
  onSync,
  onDelete,
}: {
  schedule: ScheduleItem;
  now: number;
  pending: boolean;
  syncing: boolean;
  onStatus: (status: "active" | "paused") => void;
  onEdit: () => void;
  onSync: () => void;
  onDelete: () => void;
}) {
  const recipe = effective(schedule);
  const words = describeCron(recipe.cron);
  const overrides = overrideParts(schedule);
  const label = words ?? recipe.cron;
  const deleting = schedule.status === "deleting";
  const menu: MenuAction[] = [
    { label: "Edit schedule…", onSelect: onEdit },
    { label: "Sync now", onSelect: onSync },
    { label: "Delete schedule…", icon: <TrashIcon />, tone: "danger", onSelect: onDelete },
  ];
  return (
    <tr
      data-schedule-id={schedule.schedule_id}
      data-status={schedule.status}
      data-sync={schedule.sync}
      data-source={schedule.source}
    >
      <th scope="row" className="ui-table__row-header">
        <span className="schedule-cell">
          <span className="schedule-cell__words">{label}</span>
          <span className="schedule-cell__cron">
            <code>{recipe.cron}</code> <span className="muted">{recipe.timezone}</span>
          </span>
          <span className="schedule-cell__message">{recipe.message}</span>
        </span>
      </th>
      <td>
        <span className="schedule-status">
          <StatusBadge status={schedule.status} variants={scheduleStatusVariants} pending={pending} />
          {schedule.once ? <Badge tone="info">Once</Badge> : null}
        </span>
      </td>
      <td className="schedule-sync">
        <StatusBadge status={schedule.sync} variants={syncVariants} pending={syncing} />
        {schedule.last_error ? <span className="schedule-sync__error">{schedule.last_error}</span> : null}
      </td>
      <td>
        {schedule.next_fire_at === null ? (
          <span className="muted">{schedule.status === "paused" ? "None while paused" : "—"}</span>
        ) : (
          <span className="next-fire">
            <span className="next-fire__until">{until(schedule.next_fire_at, now)}</span>
            <ZonedTime value={schedule.next_fire_at} timeZone={recipe.timezone} />
          </span>
        )}
      </td>
      <td>
        <span className="schedule-source">
          <span>{sourceLabels[schedule.source]}</span>
          {schedule.source === "trigger" ? (
            overrides.length > 0 ? (
              <span className="schedule-source__override">
                Overridden:{" "}
                {overrides.map(({ field, value }, index) => (
                  <span key={field} className="schedule-source__part">
                    {field} <code>{value}</code>
                    {index < overrides.length - 1 ? <span className="ui-visually-hidden">; </span> : null}
                  </span>
                ))}
              </span>
            ) : (
              <span className="muted">As the document says</span>
            )
          ) : null}
        </span>
      </td>
      <td data-align="end" data-actions="">
        {deleting ? (
          <span className="muted">Being deleted</span>
        ) : (
          <span className="fleet-actions">
            {schedule.status === "paused" ? (
              <Button
                size="sm"
                icon={<PlayIcon />}
                aria-label={`Resume schedule ${label}`}
                pending={pending}
                onClick={() => onStatus("active")}
              >
                Resume
              </Button>
            ) : (
              <Button
                size="sm"
                icon={<PauseIcon />}
                aria-label={`Pause schedule ${label}`}
                pending={pending}
                onClick={() => onStatus("paused")}
              >
                Pause
              </Button>
            )}
            <ActionMenu label={`More actions for schedule ${label}`} actions={menu} />
          </span>
        )}
      </td>
    </tr>
  );
}

function DeleteScheduleDialog({
  schedule,
  ids,
  onClose,
  onDeleted,
}: {
  schedule: ScheduleItem;
  ids: { workspace_id: string; fleet_id: string };
  onClose: () => void;
  onDeleted: () => void;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.schedules.list.queryKey(ids) });
  const remove = useMutation(
    trpc.schedules.delete.mutationOptions({
      onSuccess: async () => {
        await refresh();
        onDeleted();
        onClose();
      },
      onError: (error) => (statusOf(error) === 404 ? refresh() : undefined),
    }),
  );
  const recipe = effective(schedule);
  const words = describeCron(recipe.cron) ?? recipe.cron;
  return (
    <ConfirmDialog
      open
      title="Delete this schedule?"
      confirmLabel="Delete schedule"
      pending={remove.isPending}
      problem={remove.error ? problemOf(remove.error) : null}
      onCancel={onClose}
      onConfirm={() => remove.mutate({ ...ids, schedule_id: schedule.schedule_id })}
    >
      <p className="dialog-text">
        <strong>{words}</strong> ({recipe.timezone}) stops firing at once: the fleet no longer receives “
        {recipe.message}”. Until the scheduler confirms, it shows as deleting; it never fires meanwhile.
      </p>
      {schedule.source === "trigger" ? (
        <p className="dialog-text muted">
          It comes from the fleet's document; the document itself is not changed, and reinstalling the fleet
          brings the trigger back.
        </p>
      ) : null}
    </ConfirmDialog>
  );
}
