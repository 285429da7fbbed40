import { randomUUID } from "node:crypto";
import type { Lease, OutputOf } from "@fleet/contracts";
import type { ActivityFrame } from "@fleet/contracts/activity/publish-activity";
import type { openGate } from "@fleet/contracts/approvals/open-gate";
import type { createLibrary } from "@fleet/contracts/fleet-libraries/create-library";
import type { createFleet } from "@fleet/contracts/fleets/create-fleet";
import type { messageFleet as messageOperation } from "@fleet/contracts/fleets/message-fleet";
import type { enrollRunner } from "@fleet/contracts/runners/enroll-runner";
import { addMember, loginLink, operatorToken, type Tenant } from "./fleetctl.ts";

/**
 * Seeds fleets and their activity through the real /v1 API, as a tenant's script, an operator and a runner
 * would: library entries, installs, messages, and a runner that leases events and reports their outcome.
 */

export async function call<T>(
  apiUrl: string,
  token: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<T> {
  const response = await fetch(`${apiUrl}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${text}`);
  return (text ? JSON.parse(text) : undefined) as T;
}

export interface DefinitionOptions {
  name: string;
  description?: string;
  credentials?: { name: string; reason: string }[];
  /** The labels a runner needs to lease its events; by default one no runner carries. */
  runnerLabels?: string[];
  /** Tool names, or entries with an approval mark (`{name, approval: "required"}`). */
  tools?: (string | { name: string; approval?: "required" })[];
  triggers?: { cron: string; timezone?: string; message: string }[];
  instructions?: string;
}

/** A fleet definition file (docs/fleet-library-format.md) from its parts. */
export function definition(options: DefinitionOptions): string {
  const lines = ["---", `name: ${JSON.stringify(options.name)}`];
  if (options.description) lines.push(`description: ${JSON.stringify(options.description)}`);
  if (options.triggers?.length) {
    lines.push("triggers:");
    for (const trigger of options.triggers) {
      lines.push(`  - cron: ${JSON.stringify(trigger.cron)}`);
      if (trigger.timezone) lines.push(`    timezone: ${trigger.timezone}`);
      lines.push(`    message: ${JSON.stringify(trigger.message)}`);
    }
  }
  lines.push("requires:");
  lines.push(
    options.credentials?.length
      ? `  credentials:\n${options.credentials.map((c) => `    - name: ${c.name}\n      reason: ${JSON.stringify(c.reason)}`).join("\n")}`
      : "  credentials: []",
  );
  lines.push(`  tools: ${JSON.stringify(options.tools ?? [])}`);
  // A fleet that requires no label is any runner's work, and every spec's test runner shares the one API:
  // without labels of its own a fleet would be leased by whichever spec's runner asks first. So a fleet
  // the test does not give labels requires one that no runner carries, and its events wait.
  lines.push(
    `  runner_labels: ${JSON.stringify(options.runnerLabels ?? [`unleased-${randomUUID().slice(0, 8)}`])}`,
  );
  lines.push("---");
  lines.push(options.instructions ?? `# ${options.name}\n\nAnswer every message briefly.`);
  return `${lines.join("\n")}\n`;
}

export type LibraryEntry = OutputOf<typeof createLibrary>;

/** A tenant entry, visible to the tenant's workspace only (posted with the tenant's API key). */
export function addTenantEntry(apiUrl: string, tenant: Tenant, text: string): Promise<LibraryEntry> {
  return call(apiUrl, tenant.api_key, "POST", `/v1/workspaces/${tenant.workspace_id}/fleet-libraries`, {
    definition: text,
  });
}

/**
 * A platform entry, visible to every workspace of the run (posted with an operator token: `operator`, one
 * holding `platform-library:write`, else a new one).
 */
export async function addPlatformEntry(
  apiUrl: string,
  text: string,
  operator?: string,
): Promise<LibraryEntry> {
  const token = operator ?? (await operatorToken("platform-library:write"));
  return call(apiUrl, token, "POST", "/v1/admin/fleet-libraries", { definition: text });
}

export type InstalledFleet = OutputOf<typeof createFleet>;

export function installFleet(apiUrl: string, tenant: Tenant, entry: LibraryEntry, name?: string) {
  return call<InstalledFleet>(
    apiUrl,
    tenant.api_key,
    "POST",
    `/v1/workspaces/${tenant.workspace_id}/fleets`,
    {
      [entry.visibility === "platform" ? "platform_library_id" : "tenant_library_id"]: entry.id,
      ...(name ? { name } : {}),
    },
  );
}

export function setFleetStatus(apiUrl: string, tenant: Tenant, fleetId: string, status: string) {
  return call(apiUrl, tenant.api_key, "PATCH", `/v1/workspaces/${tenant.workspace_id}/fleets/${fleetId}`, {
    status,
  });
}

/**
 * A session of a member of the tenant's who sends messages and asks for grants: the person who caused a
 * gate does not approve it by default, so a spec that answers as the owner has someone else ask.
 */
export async function requesterToken(apiUrl: string, tenant: Tenant): Promise<string> {
  const email = `requester-${randomUUID().slice(0, 8)}@example.test`;
  await addMember(tenant.tenant_id, email, "fleet:write fleet:read");
  const token = new URL(await loginLink(email)).searchParams.get("token");
  const response = await fetch(`${apiUrl}/v1/auth/sign-in-links/exchange`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ token }),
  });
  if (!response.ok) throw new Error(`exchanging the requester's link answered ${response.status}`);
  return ((await response.json()) as { session_token: string }).session_token;
}

export function messageFleet(
  apiUrl: string,
  tenant: Tenant,
  fleetId: string,
  message: string,
  token = tenant.api_key,
) {
  return call<OutputOf<typeof messageOperation>>(
    apiUrl,
    token,
    "POST",
    `/v1/workspaces/${tenant.workspace_id}/fleets/${fleetId}/messages`,
    { message },
  );
}

export type RunnerGate = OutputOf<typeof openGate>;
export interface GateFields {
  action_id: string;
  tool_name: string;
  action_name: string;
  gate_kind: string;
  proposed_action: string;
  evidence: Record<string, unknown>;
  blast_radius: string;
  detail: string;
  timeout_ms: number;
}

export type Outcome =
  | { outcome: "processed"; response_text?: string; tokens?: number; wall_ms?: number; cost_nanos?: number }
  | { outcome: "fleet_error"; failure_label: string; failure_detail?: string; wall_ms?: number };

/**
 * Enrols a runner host as an operator does (`landlock_full`, one label): its id and token. `operator` holds
 * `runner:write`; without it a new token is minted.
 */
export async function enrolRunner(apiUrl: string, hostId: string, label: string, operator?: string) {
  const token = operator ?? (await operatorToken("runner:write"));
  return call<OutputOf<typeof enrollRunner>>(apiUrl, token, "POST", "/v1/runners", {
    host_id: hostId,
    assigned_policy: { sandbox_tier: "landlock_full" },
    labels: [label],
  });
}

/**
 * A runner of the test's own. The API runs one queue for every tenant, so the runner carries a label
 * unique to the test and the test's fleets require it: no other spec's runner takes their events.
 */
export class TestRunner {
  readonly label = `e2e-${randomUUID().slice(0, 8)}`;
  /** The host it enrols as, which the runners pages show. */
  readonly hostId = `${this.label}.e2e.test`;
  /** Its id, once its first call enrolled it. */
  runnerId = "";
  private token: string | null = null;

  constructor(private readonly apiUrl: string) {}

  private async self(method: string, path: string, body?: unknown) {
    if (this.token === null) {
      const enrolled = await enrolRunner(this.apiUrl, this.hostId, this.label);
      this.token = enrolled.runner_token;
      this.runnerId = enrolled.runner_id;
      // The host reports what the policy needs, so it is not degraded and is leased work.
      await call(this.apiUrl, this.token, "POST", "/v1/runners/me/heartbeats", {
        capability_report: { landlock: true, seccomp: true },
      });
    }
    return call<unknown>(this.apiUrl, this.token, method, path, body);
  }

  /** Reports the host in again, so it reads online (it enrols with the first call). */
  async heartbeat(): Promise<void> {
    await this.self("POST", "/v1/runners/me/heartbeats", {
      capability_report: { landlock: true, seccomp: true },
    });
  }

  /** Leases the next waiting event of the test's fleets, waiting up to 10 s for one. */
  async lease(): Promise<Lease> {
    const answer = (await this.self("POST", "/v1/runners/me/leases", { wait_ms: 10_000 })) as {
      lease: Lease | null;
    };
    if (answer.lease === null) throw new Error("no event waited for the runner");
    return answer.lease;
  }

  async report(lease: Lease, outcome: Outcome): Promise<void> {
    await this.self("POST", "/v1/runners/me/reports", {
      lease_id: lease.lease_id,
      event_id: lease.event_id,
      fencing_token: lease.fencing_token,
      ...outcome,
    });
  }

  /**
   * Opens an approval gate for the leased event's fleet, as an executor does before a gated action; the
   * fields not given are a plausible deploy. A new `action_id` each call unless one is given.
   */
  async openGate(lease: Lease, fields: Partial<GateFields> = {}): Promise<RunnerGate> {
    return (await this.self("POST", `/v1/runners/me/leases/${lease.lease_id}/gates`, {
      fencing_token: lease.fencing_token,
      action_id: randomUUID(),
      tool_name: "deploy",
      action_name: "release",
      gate_kind: "deploy",
      proposed_action: "deploy web@v2 to production",
      evidence: { service: "web", from: "v1", to: "v2", checks: { passed: 12, failed: 0 } },
      blast_radius: "production web, all customers",
      detail: "The release notes ask for an approval before production.",
      ...fields,
    })) as RunnerGate;
  }

  /** Reads a gate's answer as its runner does, waiting up to `waitMs` while it is pending. */
  async waitGate(lease: Lease, gateId: string, waitMs = 0): Promise<RunnerGate> {
    return (await this.self(
      "GET",
      `/v1/runners/me/leases/${lease.lease_id}/gates/${gateId}?wait_ms=${waitMs}`,
    )) as RunnerGate;
  }

  /** Publishes live-tail frames of the leased run, as an executor does while it works. */
  async publish(lease: Lease, frames: ActivityFrame[]): Promise<void> {
    await this.self("POST", `/v1/runners/me/leases/${lease.lease_id}/activity`, { frames });
  }

  /** Stores a memory for the leased event's fleet. */
  async remember(lease: Lease, key: string, content: string, category: string): Promise<void> {
    await this.self("PUT", `/v1/runners/me/leases/${lease.lease_id}/memories/${encodeURIComponent(key)}`, {
      fencing_token: lease.fencing_token,
      category,
      content,
    });
  }
}
