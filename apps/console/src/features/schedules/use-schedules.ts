"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import type { FleetView } from "../../lib/fleet-status.ts";
import { useTRPC } from "../../lib/trpc.ts";
import type { ScheduleDialogMode } from "./schedule-form.ts";
import type { ScheduleItem } from "./schedule-labels.ts";
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
 * A fleet's schedules and what is done to them from the panel: the list (polled closely while a push is
 * under way), pause and resume, sync now, the create or edit dialog, the delete waiting for its
 * confirmation, and what the last action did.
 */
export function useSchedules(fleet: FleetView) {
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
  const openEdit = (schedule: ScheduleItem) => {
    setDone(null);
    setNotice(null);
    setDialog({ kind: "edit", schedule });
  };
  const syncNow = (schedule: ScheduleItem) => {
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
  };
  const askDelete = (schedule: ScheduleItem) => {
    setDone(null);
    setDeleting(schedule);
  };

  return {
    ids,
    list,
    items,
    now,
    update,
    sync,
    /** The schedule whose status is being changed. */
    rowUpdate: update.variables?.schedule_id,
    failure: update.error ?? sync.error,
    dismissFailure: () => {
      update.reset();
      sync.reset();
    },
    dialog,
    closeDialog: () => setDialog(null),
    editing,
    notice,
    setNotice,
    deleting,
    closeDelete: () => setDeleting(null),
    done,
    setDone,
    openCreate,
    openEdit,
    setStatus,
    syncNow,
    askDelete,
  };
}
