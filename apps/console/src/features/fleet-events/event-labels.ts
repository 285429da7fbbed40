import type { StatusVariant } from "@fleet/ui";
import type { RouterOutputs } from "../../lib/trpc.ts";

export type FleetEventItem = RouterOutputs["fleetEvents"]["list"]["items"][number];
export type FleetEventView = RouterOutputs["fleetEvents"]["get"];

export const eventTypeLabels: Record<FleetEventItem["event_type"], string> = {
  chat: "Message",
  webhook: "Webhook",
  cron: "Schedule",
  continuation: "Continuation",
};

/**
 * An event's stored status in words. `received` is stored until a runner reports, so it covers waiting for
 * a runner, running and waiting at a gate: the run's page and the conversation say which from its gates
 * and frames. `gate_blocked` is the service refusing the event before any runner took it (it never ran,
 * and cannot be run again), not a run waiting for an approval.
 */
export const eventStatusVariants: Record<FleetEventItem["status"], StatusVariant> = {
  received: { label: "Received", tone: "info" },
  processed: { label: "Processed", tone: "success" },
  fleet_error: { label: "Failed", tone: "danger" },
  gate_blocked: { label: "Refused before it ran", tone: "warning" },
};
