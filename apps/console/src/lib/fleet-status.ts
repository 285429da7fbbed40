import type { FleetStatus } from "@fleet/contracts";
import type { StatusVariant } from "@fleet/ui";
import type { RouterOutputs } from "./trpc.ts";

export type FleetItem = RouterOutputs["fleets"]["list"]["items"][number];
export type FleetView = RouterOutputs["fleets"]["get"];

export const fleetStatusVariants: Record<FleetStatus, StatusVariant> = {
  installing: { label: "Installing", tone: "info" },
  active: { label: "Active", tone: "success" },
  paused: { label: "Paused", tone: "warning" },
  stopped: { label: "Stopped", tone: "neutral" },
  killed: { label: "Killed", tone: "danger" },
};

/** What a person can ask of a fleet; each but delete is a move to a status. */
export type FleetAction = "pause" | "resume" | "stop" | "kill" | "delete";

export const actionTargets = {
  pause: "paused",
  resume: "active",
  stop: "stopped",
  kill: "killed",
} as const satisfies Record<Exclude<FleetAction, "delete">, FleetStatus>;

/**
 * The actions offered in each status, mirroring the moves the API allows (active ⇄ paused; active or
 * paused → stopped; stopped → active; any but killed → killed). The API stays the judge: a move that
 * became stale answers 409 and the console refetches.
 */
export const offeredActions: Record<FleetStatus, readonly FleetAction[]> = {
  installing: ["kill", "delete"],
  active: ["pause", "stop", "kill", "delete"],
  paused: ["resume", "stop", "kill", "delete"],
  stopped: ["resume", "kill", "delete"],
  killed: ["delete"],
};

/** Why a fleet in this status takes no messages; null when it does. */
export function messageBlockedReason(status: FleetStatus): string | null {
  switch (status) {
    case "active":
      return null;
    case "installing":
      return "The fleet is still installing; messages are accepted once it is active.";
    case "paused":
      return "The fleet is paused and does not accept messages. Resume it to send one.";
    case "stopped":
      return "The fleet is stopped and does not accept messages. Resume it to send one.";
    case "killed":
      return "The fleet was killed and accepts no more work. Install it again to message it.";
  }
}
