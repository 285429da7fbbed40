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

export const eventStatusVariants: Record<FleetEventItem["status"], StatusVariant> = {
  received: { label: "Received", tone: "info" },
  processed: { label: "Processed", tone: "success" },
  fleet_error: { label: "Failed", tone: "danger" },
  gate_blocked: { label: "Blocked at a gate", tone: "warning" },
};
