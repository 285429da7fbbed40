import { randomUUID } from "node:crypto";
import type { CapabilityReport, Lease, OutputOf } from "@fleet/contracts";
import type { acquireLease } from "@fleet/contracts/leases/acquire-lease";
import type { enrollRunner } from "@fleet/contracts/runners/enroll-runner";
import type { heartbeat } from "@fleet/contracts/runners/heartbeat";
import { call } from "./fleet-api.ts";

/**
 * A runner driven by hand through the real /v1 API, for the operator pages: enrolled with an operator
 * token, then heartbeating a chosen capability report and taking leases with its own token.
 */

export const noMechanisms: CapabilityReport = {
  landlock: false,
  seccomp: false,
  cgroup_controllers: [],
  bubblewrap: false,
  egress_enforcement: false,
};

export class ManualRunner {
  /** Unique to the test: only fleets requiring it are leased to this runner, and no other runner has it. */
  readonly label = `e2e-${randomUUID().slice(0, 8)}`;
  readonly hostId = `${this.label}.runners.test`;
  runnerId = "";
  private token = "";

  constructor(private readonly apiUrl: string) {}

  async enrol(operatorToken: string, tier = "landlock_full"): Promise<void> {
    const enrolled = await call<OutputOf<typeof enrollRunner>>(
      this.apiUrl,
      operatorToken,
      "POST",
      "/v1/runners",
      { host_id: this.hostId, assigned_policy: { sandbox_tier: tier }, labels: [this.label] },
    );
    this.runnerId = enrolled.runner_id;
    this.token = enrolled.runner_token;
  }

  heartbeat(report: CapabilityReport) {
    return call<OutputOf<typeof heartbeat>>(this.apiUrl, this.token, "POST", "/v1/runners/me/heartbeats", {
      capability_report: report,
    });
  }

  /** Leases the next waiting event of the test's fleets, waiting up to 10 s for one. */
  async lease(): Promise<Lease> {
    const answer = await call<OutputOf<typeof acquireLease>>(
      this.apiUrl,
      this.token,
      "POST",
      "/v1/runners/me/leases",
      {
        wait_ms: 10_000,
      },
    );
    if (answer.lease === null) throw new Error("no event waited for the runner");
    return answer.lease;
  }

  async fail(lease: Lease, failure_label: string, failure_detail: string): Promise<void> {
    await call(this.apiUrl, this.token, "POST", "/v1/runners/me/reports", {
      lease_id: lease.lease_id,
      event_id: lease.event_id,
      fencing_token: lease.fencing_token,
      outcome: "fleet_error",
      failure_label,
      failure_detail,
    });
  }
}
