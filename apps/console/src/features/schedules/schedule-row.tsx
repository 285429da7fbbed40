"use client";

import {
  ActionMenu,
  Badge,
  Button,
  type MenuAction,
  PauseIcon,
  PlayIcon,
  StatusBadge,
  TrashIcon,
  ZonedTime,
} from "@fleet/ui";
import { describeCron } from "../../lib/cron-text.ts";
import {
  effective,
  overrideParts,
  type ScheduleItem,
  scheduleStatusVariants,
  sourceLabels,
  syncVariants,
  until,
} from "./schedule-labels.ts";
import "../../styles/table-cells.css";
import "./schedule-row.css";

/**
 * One schedule: its recipe in words and as cron, its status, the sync pill with the last error, the next
 * fire in its zone and in UTC, where it came from (and what of the document it overrides), its actions.
 */
export function ScheduleRow({
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
