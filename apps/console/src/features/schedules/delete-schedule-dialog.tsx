"use client";

import { ConfirmDialog } from "@fleet/ui";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { describeCron } from "../../lib/cron-text.ts";
import { problemOf, statusOf } from "../../lib/problem.ts";
import { useTRPC } from "../../lib/trpc.ts";
import { effective, type ScheduleItem } from "./schedule-labels.ts";

/** Deleting a schedule, once confirmed: what stops firing, and that a trigger comes back on reinstall. */
export function DeleteScheduleDialog({
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
