"use client";

import { Button, PlusIcon, ProblemAlert } from "@fleet/ui";
import { DoneStatus } from "../../components/done-status.tsx";
import { ListLoading, ListProblem } from "../../components/query-problem.tsx";
import { usePageActions } from "../../lib/commands.tsx";
import type { FleetView } from "../../lib/fleet-status.ts";
import { problemOf } from "../../lib/problem.ts";
import { useShortcuts } from "../../lib/shortcuts.tsx";
import { DeleteScheduleDialog } from "./delete-schedule-dialog.tsx";
import { ScheduleDialog } from "./schedule-dialog.tsx";
import { conflictHint } from "./schedule-labels.ts";
import { ScheduleRow } from "./schedule-row.tsx";
import { useSchedules } from "./use-schedules.ts";
import "../../styles/card-parts.css";
import "./schedules-panel.css";

/**
 * The fleet's schedules, oldest first as the API lists them (a fleet holds at most 32): what each runs and
 * when it next fires in its own zone and in UTC, whether the scheduler holds it (the sync pill, with the
 * last error), where it came from, and the actions on it.
 */
export function SchedulesPanel({ fleet }: { fleet: FleetView }) {
  const schedules = useSchedules(fleet);
  const { list, items, now, update, sync, rowUpdate, failure, editing, openCreate } = schedules;
  useShortcuts("Schedules", [{ key: "c", description: "Create a schedule", run: openCreate }]);
  usePageActions([{ label: "Create a schedule", keywords: "new cron", shortcut: "c", run: openCreate }]);

  return (
    <div className="schedules">
      <div className="schedules__toolbar">
        <p className="schedules__intro">
          Each fire sends {fleet.name} its message as a cron event. Times show in the schedule's zone and in
          UTC.
        </p>
        <div className="schedules__actions">
          <DoneStatus done={schedules.done} />
          <Button variant="primary" size="sm" icon={<PlusIcon />} aria-keyshortcuts="c" onClick={openCreate}>
            Create schedule
          </Button>
        </div>
      </div>
      {failure ? (
        <div className="schedules__problem">
          <ProblemAlert problem={problemOf(failure)} details={conflictHint(failure)}>
            <Button size="sm" onClick={schedules.dismissFailure}>
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
                  onStatus={(status) => schedules.setStatus(schedule, status)}
                  onEdit={() => schedules.openEdit(schedule)}
                  onSync={() => schedules.syncNow(schedule)}
                  onDelete={() => schedules.askDelete(schedule)}
                />
              ))}
            </tbody>
          </table>
        </div>
      )}
      {schedules.dialog?.kind === "create" || editing ? (
        <ScheduleDialog
          key={editing ? `${editing.schedule_id}:${editing.etag}` : "create"}
          mode={editing ? { kind: "edit", schedule: editing } : { kind: "create" }}
          workspaceId={fleet.workspace_id}
          fleetId={fleet.fleet_id}
          fleetName={fleet.name}
          notice={schedules.notice}
          onClose={schedules.closeDialog}
          onStale={schedules.setNotice}
          onDone={(message) => {
            schedules.setDone(message);
            schedules.closeDialog();
          }}
        />
      ) : null}
      {schedules.deleting ? (
        <DeleteScheduleDialog
          schedule={schedules.deleting}
          ids={schedules.ids}
          onClose={schedules.closeDelete}
          onDeleted={() => schedules.setDone("Deleted the schedule.")}
        />
      ) : null}
    </div>
  );
}
