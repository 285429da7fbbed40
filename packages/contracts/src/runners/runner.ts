import { z } from "zod";
import { epochMs, uuidv7 } from "../common.ts";

export const sandboxTiers = ["landlock_full", "container_nested", "dev_none"] as const;
export const networkPolicies = ["allow_all", "deny_all_egress", "allow_list_egress"] as const;
export const runnerAdminStates = ["active", "cordoned", "draining", "revoked"] as const;
export const runnerStatuses = ["active", "cordoned", "draining", "drained", "revoked"] as const;
export const runnerLiveness = ["registered", "busy", "online", "offline"] as const;
export const leaseKinds = ["fresh", "reclaim"] as const;
/** What the service records of a lease; `unknown` is only ever derived (its fleet event is gone). */
export const leaseStates = ["running", "succeeded", "failed", "expired"] as const;
export const leaseOutcomes = [...leaseStates, "unknown"] as const;
export const runnerEventTypes = [
  "runner_registered",
  "runner_online",
  "runner_offline",
  "lease_acquired",
  "lease_released",
  "runner_cordoned",
  "runner_draining",
  "runner_drained",
  "runner_revoked",
  "runner_policy_assigned",
] as const;

/** The policy an operator assigns; `worker_count` is clamped into 1–64 and echoed as stored. */
export const assignedPolicyInput = z.strictObject({
  sandbox_tier: z.enum(sandboxTiers, { error: `sandbox_tier must be one of ${sandboxTiers.join(", ")}` }),
  network_policy: z
    .enum(networkPolicies, { error: `network_policy must be one of ${networkPolicies.join(", ")}` })
    .default("allow_all"),
  registry_allowlist: z.array(z.string().min(1).max(253)).max(64).default([]),
  worker_count: z
    .number({ error: "worker_count must be an integer" })
    .int({ error: "worker_count must be an integer" })
    .default(1)
    .transform((count) => Math.min(64, Math.max(1, count))),
});

export const assignedPolicy = z
  .object({
    sandbox_tier: z.enum(sandboxTiers),
    network_policy: z.enum(networkPolicies),
    registry_allowlist: z.array(z.string()),
    worker_count: z.number().int(),
  })
  .meta({ id: "AssignedPolicy" });
export type AssignedPolicy = z.output<typeof assignedPolicy>;

/** What the host says it can enforce. Unknown fields are refused. */
export const capabilityReport = z
  .strictObject({
    landlock: z.boolean().default(false),
    seccomp: z.boolean().default(false),
    cgroup_controllers: z.array(z.string().max(32)).max(32).default([]),
    bubblewrap: z.boolean().default(false),
    egress_enforcement: z.boolean().default(false),
  })
  .meta({ id: "CapabilityReport" });
/** A capability report as stored and answered (every field present once defaults apply). */
export type CapabilityReport = z.output<typeof capabilityReport>;

export const runnerView = z
  .object({
    runner_id: z.string(),
    host_id: z.string(),
    labels: z.array(z.string()),
    assigned_policy: assignedPolicy.nullable(),
    /** The operator's intent with `drained` derived: a draining runner holding no live lease. */
    status: z.enum(runnerStatuses),
    liveness: z.enum(runnerLiveness),
    achievable: capabilityReport.nullable(),
    degraded: z.boolean(),
    degraded_reason: z.string().nullable(),
    last_heartbeat_at: epochMs.nullable(),
    active_lease_count: z.number().int(),
    active_fleet_count: z.number().int(),
    leases_acquired: z.number().int(),
    leases_succeeded: z.number().int(),
    leases_failed: z.number().int(),
    leases_expired: z.number().int(),
    created_at: epochMs,
    revoked_at: epochMs.nullable(),
  })
  .meta({ id: "Runner" });

export const leaseSummary = z
  .object({
    lease_id: z.string(),
    outcome: z.enum(leaseOutcomes),
    failure_label: z.string().optional(),
    failure_detail: z.string().optional(),
    fencing_token: z.number().int(),
    kind: z.enum(leaseKinds),
    provider: z.string().nullable(),
    model: z.string().nullable(),
    posture: z.string().nullable(),
    input_tokens: z.number().int().nullable(),
    output_tokens: z.number().int().nullable(),
    cached_tokens: z.number().int().nullable(),
    fleet_id: z.string(),
    workspace_id: z.string(),
    fleet_name: z.string().nullable(),
    event_id: z.string(),
    created_at: epochMs,
    expires_at: epochMs,
    ended_at: epochMs.nullable(),
  })
  .meta({ id: "LeaseSummary" });

export const runnerEventItem = z
  .object({
    id: z.string(),
    runner_id: z.string(),
    event_type: z.enum(runnerEventTypes),
    detail: z.record(z.string(), z.unknown()),
    /**
     * The name of the fleet the entry's detail names (`detail.fleet_id`, a lease's fleet), read when the
     * history is listed; null when it names none or the fleet is deleted.
     */
    fleet_name: z.string().nullable(),
    created_at: epochMs,
  })
  .meta({ id: "RunnerEvent" });

export const runnerIdParam = { id: uuidv7("id") };

/**
 * What a workspace is told when a runner that served one of its fleets goes quiet (`runner.offline`): the
 * runner as far as that fleet is concerned. Never its host or its work for others.
 */
export const runnerOffline = z
  .object({
    runner_id: z.string(),
    labels: z.array(z.string()),
    last_heartbeat_at: epochMs,
    /** Its last heartbeat and the online window: when it stopped reading as online. */
    offline_at: epochMs,
    fleet_id: z.string(),
    /** The fleet's leases it still held: each ends when it expires, and its event is leased again. */
    held_leases: z.array(z.object({ lease_id: z.string(), event_id: z.string(), expires_at: epochMs })),
  })
  .meta({ id: "WebhookRunnerOffline" });
