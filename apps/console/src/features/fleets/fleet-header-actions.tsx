"use client";

import { GuardedButton, PauseIcon, PlayIcon, StopIcon, TrashIcon } from "@fleet/ui";
import { useLacking } from "../../lib/access.ts";
import { type FleetView, offeredActions } from "../../lib/fleet-status.ts";
import type { ConfirmedAction, FleetRef } from "./fleet-action-dialogs.tsx";

/**
 * The fleet page's actions, all in view: the page is about this one fleet. Someone whose scopes the API
 * would refuse (a Viewer, an Approver) sees them disabled with the scope to ask for.
 */
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
  const cannotWrite = useLacking("fleet:write");
  const cannotDelete = useLacking("fleet:admin");
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
        <GuardedButton
          icon={<PauseIcon />}
          aria-label={label("Pause")}
          unavailable={cannotWrite}
          onClick={() => onMove(ref, "paused")}
        >
          Pause
        </GuardedButton>
      ) : null}
      {offered.includes("resume") ? (
        <GuardedButton
          variant="primary"
          icon={<PlayIcon />}
          aria-label={label("Resume")}
          unavailable={cannotWrite}
          onClick={() => onMove(ref, "active")}
        >
          Resume
        </GuardedButton>
      ) : null}
      {offered.includes("stop") ? (
        <GuardedButton
          icon={<StopIcon />}
          aria-label={label("Stop")}
          unavailable={cannotWrite}
          onClick={() => onConfirm({ action: "stop", fleet: ref })}
        >
          Stop
        </GuardedButton>
      ) : null}
      {offered.includes("kill") ? (
        <GuardedButton
          variant="danger"
          aria-label={label("Kill")}
          unavailable={cannotWrite}
          onClick={() => onConfirm({ action: "kill", fleet: ref })}
        >
          Kill
        </GuardedButton>
      ) : null}
      <GuardedButton
        icon={<TrashIcon />}
        aria-label={label("Delete")}
        unavailable={cannotDelete}
        onClick={() => onConfirm({ action: "delete", fleet: ref })}
      >
        Delete
      </GuardedButton>
    </>
  );
}
