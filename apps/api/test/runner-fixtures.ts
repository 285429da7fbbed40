import type { OutputOf } from "@fleet/contracts";
import type { acquireLease } from "@fleet/contracts/leases/acquire-lease";
import type { enrollRunner as enrollOperation } from "@fleet/contracts/runners/enroll-runner";
import { expect } from "vitest";
import { call, operatorToken } from "./harness.ts";

export interface EnrolledRunner {
  runnerId: string;
  token: string;
}

export const fullReport = {
  landlock: true,
  seccomp: true,
  cgroup_controllers: ["cpu", "memory", "pids"],
  bubblewrap: true,
  egress_enforcement: true,
};

/** Enrols a runner through the operator route, and (unless told otherwise) heartbeats a full report. */
export async function enrollRunner(
  options: { labels?: string[]; policy?: Record<string, unknown>; heartbeat?: boolean } = {},
): Promise<EnrolledRunner> {
  const operator = await operatorToken(["runner:admin"]);
  const enrolled = await call<OutputOf<typeof enrollOperation>>("POST", "/v1/runners", {
    token: operator,
    body: {
      host_id: `host-${Math.random().toString(36).slice(2, 8)}`,
      assigned_policy: options.policy ?? { sandbox_tier: "landlock_full" },
      labels: options.labels ?? [],
    },
  });
  expect(enrolled.status, enrolled.text).toBe(201);
  const runner = { runnerId: enrolled.body.runner_id, token: enrolled.body.runner_token };
  if (options.heartbeat !== false) {
    const beat = await call("POST", "/v1/runners/me/heartbeats", {
      token: runner.token,
      body: { capability_report: fullReport },
    });
    expect(beat.status, beat.text).toBe(200);
  }
  return runner;
}

export type LeaseAnswer = OutputOf<typeof acquireLease>;

export function acquire(runner: EnrolledRunner, waitMs = 0) {
  return call<LeaseAnswer>("POST", "/v1/runners/me/leases", {
    token: runner.token,
    body: { wait_ms: waitMs },
  });
}

export type HeldLease = NonNullable<LeaseAnswer["lease"]>;

/**
 * A runner of `label` holding the lease of `fleetId`'s next event. A labelled runner also takes fleets that
 * need no label (other files' waiting messages on a shared database): those are held until ours arrives,
 * so the next acquire moves past them, then released at once. At most 60 held: the runner's 64 workers.
 */
export async function leaseFleet(
  label: string,
  fleetId: string,
): Promise<{ runner: EnrolledRunner; lease: HeldLease }> {
  const runner = await enrollRunner({
    labels: [label],
    policy: { sandbox_tier: "landlock_full", worker_count: 64 },
  });
  const foreign: HeldLease[] = [];
  try {
    for (let attempt = 0; attempt < 60; attempt++) {
      const leased = await acquire(runner, 5_000);
      expect(leased.status, leased.text).toBe(200);
      const lease = leased.body.lease;
      expect(lease, "no lease came for the fixture's fleet").not.toBeNull();
      if (lease!.fleet_id === fleetId) return { runner, lease: lease! };
      foreign.push(lease!);
    }
    throw new Error("the fixture's fleet was never leased");
  } finally {
    for (const lease of foreign) {
      await call("POST", `/v1/runners/me/leases/${lease.lease_id}/release`, {
        token: runner.token,
        body: { fencing_token: lease.fencing_token },
      });
    }
  }
}

/** Reports the lease processed, through the runner route; `extra` adds to or overrides the body. */
export function report(runner: EnrolledRunner, lease: HeldLease, extra: Record<string, unknown> = {}) {
  return call<Record<string, unknown>>("POST", "/v1/runners/me/reports", {
    token: runner.token,
    body: {
      lease_id: lease.lease_id,
      event_id: lease.event_id,
      fencing_token: lease.fencing_token,
      outcome: "processed",
      response_text: "done",
      ...extra,
    },
  });
}
