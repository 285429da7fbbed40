import type { WaitReason } from "@fleet/contracts";
import type { RouterOutputs } from "../../lib/trpc.ts";
import { billingHref, fleetHref, runnersHref } from "../../lib/urls.ts";

export type OverviewData = RouterOutputs["overview"]["get"];
export type WaitingItem = OverviewData["waiting_events"]["items"][number];

/** Why an event waits, in words, and the place that fixes it. */
export interface WaitExplained {
  why: string;
  fix: { label: string; href: string };
}

const labelList = (labels: string[]) => labels.map((label) => `“${label}”`).join(", ");

export function explainWait(event: WaitingItem, workspaceId: string): WaitExplained {
  const fleet = fleetHref({ workspaceId, fleetId: event.fleet_id, tab: "events" });
  const reasons: Record<WaitReason, () => WaitExplained> = {
    fleet_paused: () => ({
      why: `The fleet is ${event.fleet_status}: it takes no work until it is resumed.`,
      fix: { label: `Open ${event.fleet_name}`, href: fleet },
    }),
    budget_spent: () => ({
      why: "The fleet’s budget for this month is spent: no new work starts until it is raised.",
      fix: { label: "Review the budget", href: billingHref({ fleetId: event.fleet_id }) },
    }),
    no_runner_online: () => ({
      why: "No runner is online: none has sent a heartbeat in the last 90 seconds.",
      fix: { label: "See runners", href: runnersHref() },
    }),
    runners_unavailable: () => ({
      why: "Every online runner is cordoned, draining or degraded, so none takes new work.",
      fix: { label: "See runners", href: runnersHref() },
    }),
    labels_unmatched: () => ({
      why: `No online runner carries the labels this fleet needs: ${labelList(event.required_labels)}.`,
      fix: { label: "See runners", href: runnersHref() },
    }),
    fleet_busy: () => ({
      why: "The fleet is running an earlier event; a fleet runs one at a time.",
      fix: { label: `Open ${event.fleet_name}`, href: fleet },
    }),
    queued: () => ({
      why: "Next in line: a runner takes it at its next poll.",
      fix: { label: `Open ${event.fleet_name}`, href: fleet },
    }),
  };
  return reasons[event.reason]();
}

/** "4 min", "2 h 5 min", "3 d": how long something has waited or has left. */
export function formatSpan(ms: number): string {
  const minutes = Math.floor(Math.max(0, ms) / 60_000);
  if (minutes < 1) return "under a minute";
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return minutes % 60 === 0 ? `${hours} h` : `${hours} h ${minutes % 60} min`;
  const days = Math.floor(hours / 24);
  return hours % 24 === 0 ? `${days} d` : `${days} d ${hours % 24} h`;
}

/** A panel's total: the API stops counting at its cap. */
export function formatTotal(total: number, cap: number): string {
  return total >= cap ? `${cap}+` : String(total);
}
