"use client";

import { Button, PauseIcon, PlayIcon, StopIcon, TrashIcon } from "@fleet/ui";
import { type FleetView, offeredActions } from "../../lib/fleet-status.ts";
import type { ConfirmedAction, FleetRef } from "./fleet-action-dialogs.tsx";

/** The fleet page's actions, all in view: the page is about this one fleet. */
export function FleetHeaderActions({
  fleet,
  onMove,
  onConfirm,
}: {
  fleet: FleetView;
  onMove: (fleet: FleetRef, status: "paused" | "active") => void;
  onConfirm: (pending: NonNullable<ConfirmedAction>) => void;
}) {
  const offered = offeredActions[fleet.status];
  const ref: FleetRef = {
    id: fleet.fleet_id,
    name: fleet.name,
    workspaceId: fleet.workspace_id,
    etag: fleet.etag,
  };
  const label = (verb: string) => `${verb} fleet ${fleet.name}`;
  return (
    <>
      {offered.includes("pause") ? (
        <Button icon={<PauseIcon />} aria-label={label("Pause")} onClick={() => onMove(ref, "paused")}>
          Pause
        </Button>
      ) : null}
      {offered.includes("resume") ? (
        <Button
          variant="primary"
          icon={<PlayIcon />}
          aria-label={label("Resume")}
          onClick={() => onMove(ref, "active")}
        >
          Resume
        </Button>
      ) : null}
      {offered.includes("stop") ? (
        <Button
          icon={<StopIcon />}
          aria-label={label("Stop")}
          onClick={() => onConfirm({ action: "stop", fleet: ref })}
        >
          Stop
        </Button>
      ) : null}
      {offered.includes("kill") ? (
        <Button
          variant="danger"
          aria-label={label("Kill")}
          onClick={() => onConfirm({ action: "kill", fleet: ref })}
        >
          Kill
        </Button>
      ) : null}
      <Button
        icon={<TrashIcon />}
        aria-label={label("Delete")}
        onClick={() => onConfirm({ action: "delete", fleet: ref })}
      >
        Delete
      </Button>
    </>
  );
}
