import type {
  leaseOutcomes,
  networkPolicies,
  runnerEventTypes,
  runnerLiveness,
  runnerStatuses,
  sandboxTiers,
} from "@fleet/contracts";
import type { StatusVariant } from "@fleet/ui";
import type { RouterOutputs } from "../../lib/trpc.ts";

export type RunnerItem = RouterOutputs["runners"]["list"]["items"][number];
export type RunnerView = RouterOutputs["runners"]["get"];
export type LeaseItem = RouterOutputs["runners"]["listLeases"]["items"][number];
export type RunnerEventItem = RouterOutputs["runners"]["listEvents"]["items"][number];

export type RunnerStatus = (typeof runnerStatuses)[number];
export type Liveness = (typeof runnerLiveness)[number];
export type LeaseOutcome = (typeof leaseOutcomes)[number];
export type RunnerEventType = (typeof runnerEventTypes)[number];
export type SandboxTier = (typeof sandboxTiers)[number];
export type NetworkPolicy = (typeof networkPolicies)[number];

/** The operator's intent (with `drained` derived by the API). */
export const runnerStatusVariants: Record<RunnerStatus, StatusVariant> = {
  active: { label: "Active", tone: "success" },
  cordoned: { label: "Cordoned", tone: "warning" },
  draining: { label: "Draining", tone: "info" },
  drained: { label: "Drained", tone: "neutral" },
  revoked: { label: "Revoked", tone: "danger" },
};

/** What the host is doing, derived from its heartbeats and leases. */
export const livenessVariants: Record<Liveness, StatusVariant> = {
  online: { label: "Online", tone: "success" },
  busy: { label: "Busy", tone: "info" },
  offline: { label: "Offline", tone: "danger" },
  registered: { label: "Never seen", tone: "neutral" },
};

export const livenessMeaning: Record<Liveness, string> = {
  online: "Heartbeat within the last 90 seconds.",
  busy: "Holds at least one live lease.",
  offline: "No heartbeat for more than 90 seconds.",
  registered: "Enrolled, but has never sent a heartbeat.",
};

export const leaseOutcomeVariants: Record<LeaseOutcome, StatusVariant> = {
  running: { label: "Running", tone: "info" },
  succeeded: { label: "Succeeded", tone: "success" },
  failed: { label: "Failed", tone: "danger" },
  expired: { label: "Expired", tone: "warning" },
  unknown: { label: "Unknown", tone: "neutral" },
};

export const eventTypeLabels: Record<RunnerEventType, string> = {
  runner_registered: "Enrolled",
  runner_online: "Came online",
  runner_offline: "Went offline",
  lease_acquired: "Lease acquired",
  lease_released: "Lease released",
  runner_cordoned: "Cordoned",
  runner_draining: "Draining",
  runner_drained: "Drained",
  runner_revoked: "Revoked",
  runner_policy_assigned: "Policy assigned",
};

export const tierLabels: Record<SandboxTier, string> = {
  landlock_full: "Landlock + seccomp",
  container_nested: "Nested container",
  dev_none: "None (development)",
};

export const tierMeaning: Record<SandboxTier, string> = {
  landlock_full: "Confines each fleet with Landlock file rules and a seccomp system-call filter.",
  container_nested: "Runs each fleet in a bubblewrap container bounded by the cpu, memory and pids cgroups.",
  dev_none: "No sandbox. Assignable only when the service runs in development mode.",
};

export const networkLabels: Record<NetworkPolicy, string> = {
  allow_all: "Allow all traffic",
  deny_all_egress: "Deny all egress",
  allow_list_egress: "Allow-listed egress only",
};

/** Words for a failure label as the runner reported it: `provider_timeout` → "provider timeout". */
export function humanize(label: string): string {
  return label.replaceAll(/[_-]+/g, " ").trim();
}

/** What happened to a lease, as one plain sentence (failures above all). */
export function leaseSentence(lease: LeaseItem): string {
  switch (lease.outcome) {
    case "running":
      return "Running: the runner holds it and renews it until it reports.";
    case "succeeded":
      return "Succeeded: the runner reported the fleet's answer.";
    case "failed": {
      const label = lease.failure_label ? humanize(lease.failure_label) : "an unnamed error";
      const detail = lease.failure_detail?.trim();
      return detail
        ? `Failed with ${label}: ${detail.replace(/[.!?]?$/, ".")}`
        : `Failed with ${label}; the runner gave no detail.`;
    }
    case "expired":
      return "Expired: the runner stopped renewing before it reported, so the work was handed out again.";
    case "unknown":
      return "Unknown: the event this lease ran no longer exists (its fleet was deleted).";
  }
}

/** The lease counts of a runner over its lifetime, in the order the page shows them. */
export function lifetimeCounts(runner: RunnerView) {
  return [
    { label: "Acquired", value: runner.leases_acquired },
    { label: "Succeeded", value: runner.leases_succeeded },
    { label: "Failed", value: runner.leases_failed },
    { label: "Expired", value: runner.leases_expired },
  ] as const;
}
