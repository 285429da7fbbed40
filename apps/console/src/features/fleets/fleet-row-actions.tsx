"use client";

import type { FleetStatus } from "@fleet/contracts";
import { ActionMenu, Button, type MenuAction, PauseIcon, PlayIcon, StopIcon, TrashIcon } from "@fleet/ui";
import { useLacking } from "../../lib/access.ts";
import { offeredActions } from "../../lib/fleet-status.ts";
import type { ConfirmedAction, FleetRef } from "./fleet-action-dialogs.tsx";
import "../../styles/table-cells.css";

export interface FleetActionHandlers {
  /** Pause or resume at once (both are undone as easily); optimistic. */
  onMove: (fleet: FleetRef, status: "paused" | "active") => void;
  /** Opens the confirmation of a move that deserves one. */
  onConfirm: (pending: NonNullable<ConfirmedAction>) => void;
}

// Each opens a confirmation first, hence the ellipsis.
const menuLabels = { stop: "Stop fleet…", kill: "Kill fleet…", delete: "Delete fleet…" } as const;
const menuIcons = { stop: <StopIcon />, kill: <StopIcon />, delete: <TrashIcon /> } as const;

/**
 * A fleet's actions in the status it shows: pause or resume as a button, the weightier ones in a menu
 * (each asks before it acts). Labels name the fleet, so a screen reader's list of buttons says which.
 * What the person's scopes would have the API refuse is left out (the fleet's page shows it disabled, with
 * the scope it needs).
 */
export function FleetRowActions({
  fleet,
  status,
  handlers,
  size = "sm",
}: {
  fleet: FleetRef;
  status: FleetStatus;
  handlers: FleetActionHandlers;
  size?: "sm" | "md";
}) {
  const writable = useLacking("fleet:write") === null;
  const deletable = useLacking("fleet:admin") === null;
  const offered = offeredActions[status].filter((action) => (action === "delete" ? deletable : writable));
  const menu: MenuAction[] = (["stop", "kill", "delete"] as const)
    .filter((action) => offered.includes(action))
    .map((action) => ({
      label: menuLabels[action],
      icon: menuIcons[action],
      tone: action === "stop" ? "default" : "danger",
      onSelect: () => handlers.onConfirm({ action, fleet }),
    }));
  return (
    <span className="fleet-actions">
      {offered.includes("pause") ? (
        <Button
          size={size}
          icon={<PauseIcon />}
          aria-label={`Pause fleet ${fleet.name}`}
          onClick={() => handlers.onMove(fleet, "paused")}
        >
          Pause
        </Button>
      ) : null}
      {offered.includes("resume") ? (
        <Button
          size={size}
          icon={<PlayIcon />}
          aria-label={`Resume fleet ${fleet.name}`}
          onClick={() => handlers.onMove(fleet, "active")}
        >
          Resume
        </Button>
      ) : null}
      {menu.length > 0 ? <ActionMenu label={`More actions for fleet ${fleet.name}`} actions={menu} /> : null}
    </span>
  );
}
