import { execFile } from "node:child_process";
import { accessSync, constants, existsSync, readFileSync, statSync } from "node:fs";
import { delimiter, join } from "node:path";
import type { CapabilityReport } from "./api.ts";

/**
 * Where the probes look: `root` is prepended to every kernel path (`/` on a host, a fixture directory in
 * tests) and `path` is the PATH searched for `bwrap`.
 */
export interface HostView {
  root: string;
  path: string;
}

function read(view: HostView, file: string): string | null {
  try {
    return readFileSync(join(view.root, file), "utf8");
  } catch {
    return null;
  }
}

/** Landlock is usable when the kernel lists it among its active security modules. */
export function probeLandlock(view: HostView): boolean {
  const lsm = read(view, "sys/kernel/security/lsm") ?? "";
  return lsm.trim().split(",").includes("landlock");
}

/**
 * The kernel supports seccomp filters: /proc/self/status carries a Seccomp field (only kernels built with
 * CONFIG_SECCOMP have it), or the /proc/sys/kernel/seccomp directory exists.
 */
export function probeSeccomp(view: HostView): boolean {
  const status = read(view, "proc/self/status");
  if (status !== null && /^Seccomp:\s*\d+\s*$/m.test(status)) return true;
  return existsSync(join(view.root, "proc/sys/kernel/seccomp"));
}

/** The cgroup v2 controllers available to this host's cgroup (empty on cgroup v1 or without cgroupfs). */
export function probeCgroupControllers(view: HostView): string[] {
  const text = read(view, "sys/fs/cgroup/cgroup.controllers");
  if (text === null) return [];
  const names = text.split(/\s+/).filter((name) => /^[a-z0-9_]{1,32}$/.test(name));
  return [...new Set(names)].slice(0, 32);
}

/** The first executable `name` on `path`, or null. */
export function findOnPath(name: string, path: string): string | null {
  for (const dir of path.split(delimiter)) {
    if (dir === "") continue;
    const candidate = join(dir, name);
    try {
      if (!statSync(candidate).isFile()) continue;
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return null;
}

/**
 * bubblewrap is usable when `bwrap` is on PATH and can actually start a sandbox here: a binary that is
 * present but cannot create namespaces (no unprivileged user namespaces, a seccomp-confined container)
 * counts as absent.
 */
export function probeBubblewrap(view: HostView, timeoutMs = 5_000): Promise<boolean> {
  const bwrap = findOnPath("bwrap", view.path);
  if (bwrap === null) return Promise.resolve(false);
  return new Promise((resolve) => {
    execFile(
      bwrap,
      ["--ro-bind", "/", "/", "--dev", "/dev", "--unshare-pid", "--die-with-parent", "true"],
      { timeout: timeoutMs, env: { PATH: view.path } },
      (error) => resolve(error === null),
    );
  });
}

/**
 * Egress enforcement is what this runner does, not what the host could do: the reference runner does not
 * filter its executors' network traffic, so it reports false and never claims a network policy it does not
 * hold. A runner that installs an egress filter reports true.
 */
export function probeEgressEnforcement(): boolean {
  return false;
}

/** Everything the heartbeat reports. */
export async function probeCapabilities(view: HostView): Promise<CapabilityReport> {
  return {
    landlock: probeLandlock(view),
    seccomp: probeSeccomp(view),
    cgroup_controllers: probeCgroupControllers(view),
    bubblewrap: await probeBubblewrap(view),
    egress_enforcement: probeEgressEnforcement(),
  };
}
