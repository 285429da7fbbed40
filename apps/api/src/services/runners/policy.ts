import type { AssignedPolicy, CapabilityReport } from "@fleet/db";

/** The cgroup controllers a nested container needs to bound a fleet's work. */
export const NESTED_CGROUP_CONTROLLERS = ["cpu", "memory", "pids"] as const;

/** How long after its last heartbeat a runner still reads as online. */
export const ONLINE_WINDOW_MS = 90_000;

/**
 * Whether a host's report satisfies its assigned policy, and if not, which mechanisms are missing.
 * A host with no policy is degraded until one is assigned; a host that never reported has nothing.
 */
export function degradedVerdict(
  policy: AssignedPolicy | null,
  report: CapabilityReport | null,
): { degraded: boolean; reason: string | null } {
  if (policy === null) return { degraded: true, reason: "no assigned policy" };
  const has: CapabilityReport = report ?? {
    landlock: false,
    seccomp: false,
    cgroup_controllers: [],
    bubblewrap: false,
    egress_enforcement: false,
  };
  const missing: string[] = [];
  if (policy.sandbox_tier === "landlock_full") {
    if (!has.landlock) missing.push("landlock");
    if (!has.seccomp) missing.push("seccomp");
  }
  if (policy.sandbox_tier === "container_nested") {
    if (!has.bubblewrap) missing.push("bubblewrap");
    for (const controller of NESTED_CGROUP_CONTROLLERS) {
      if (!has.cgroup_controllers.includes(controller)) missing.push(`cgroup controller ${controller}`);
    }
  }
  if (policy.network_policy !== "allow_all" && !has.egress_enforcement) missing.push("egress enforcement");
  if (missing.length === 0) return { degraded: false, reason: null };
  const prefix = report === null ? "no capability report yet; needs" : "missing";
  return { degraded: true, reason: `${prefix} ${missing.join(", ")} for ${policy.sandbox_tier}` };
}
