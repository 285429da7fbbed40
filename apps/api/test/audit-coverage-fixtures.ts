import { auditEvents, eq } from "@fleet/db";
import type { FakeChatVendor } from "@fleet/testing/fake-chat-vendor";
import type { FakeKeyVendor } from "@fleet/testing/fake-key-vendor";
import { expect } from "vitest";
import { call, type Response, type Tenant, testApi } from "./harness.ts";

/**
 * The audit coverage table: every operation of the contracts that is not a GET names either the request
 * that performs it and the audit action it must record, or why it records none. A mutating operation
 * added to the contracts without an entry fails `audit-coverage.test.ts`.
 */
export type Plane = "tenant" | "operator" | "vendor";

/** What a case may need beyond its tenant: the fake vendors, on the API that is pointed at them. */
export interface CaseEnv {
  chat: () => FakeChatVendor;
  keys: () => FakeKeyVendor;
}

export interface AuditedCase {
  /** Where it runs: the shared API (tenant), or one of its own (operator: global state; vendor: fakes). */
  plane: Plane;
  action: string;
  /** Performs the operation once, successfully, and answers its response. */
  perform: (owner: Tenant, env: CaseEnv) => Promise<Response<unknown>>;
}

export interface Exemption {
  exempt: string;
}

export type CoverageEntry = AuditedCase | Exemption;

export const isExempt = (entry: CoverageEntry): entry is Exemption => "exempt" in entry;

const RUNNER_PLANE =
  "runner plane: a runner's own work under its lease (fenced), recorded on the rows it writes; the audit log is of people, keys and operators";

/** Operations that record no audit row, each with its reason. */
export const exemptions: Record<string, Exemption> = {
  "activity.publish": { exempt: RUNNER_PLANE },
  "approvals.markRan": { exempt: RUNNER_PLANE },
  "approvals.open": { exempt: RUNNER_PLANE },
  "fleetSchedules.create": { exempt: RUNNER_PLANE },
  "fleetSchedules.delete": { exempt: RUNNER_PLANE },
  "fleetSchedules.run": { exempt: RUNNER_PLANE },
  "fleetSchedules.update": { exempt: RUNNER_PLANE },
  "leases.acquire": { exempt: RUNNER_PLANE },
  "leases.release": { exempt: RUNNER_PLANE },
  "leases.renew": { exempt: RUNNER_PLANE },
  "leases.report": { exempt: RUNNER_PLANE },
  "leases.reportUsage": { exempt: RUNNER_PLANE },
  "memories.delete": { exempt: RUNNER_PLANE },
  "modelGateway.chatCompletions": { exempt: RUNNER_PLANE },
  "memories.write": { exempt: RUNNER_PLANE },
  "runners.heartbeat": { exempt: RUNNER_PLANE },
  "fleets.message": {
    exempt:
      "a fleet's traffic, not a change of configuration or access: the event it stores is the record, with its actor and time (GET …/events/{event_id})",
  },
  "fleetEvents.retry": {
    exempt:
      "a fleet's traffic: the new event is the record, with the caller as its actor and the event it repeats",
  },
  "schedules.sync": {
    exempt:
      "re-sends the stored schedule to the scheduler (what the reconciler does unasked); it changes nothing a person set",
  },
  "sessions.getDeviceSignIn": {
    exempt: "a read, sent as POST so the user code stays out of URLs and access logs",
  },
  "sessions.startDeviceSignIn": {
    exempt:
      "no one is identified yet: a pending request that expires; the person's approve or deny and the credential's issue are recorded",
  },
  "connectors.receiveEvent": {
    exempt:
      "the chat vendor's signed deliveries; a click that decides a gate records approval.approve/deny (connectors-approvals.test.ts), and no other delivery changes configuration or access",
  },
};

/** The audit actions the request of `response` recorded, found by the server's request id it answered with. */
export async function actionsOf(response: Response<unknown>): Promise<string[]> {
  const requestId = response.headers.get("x-request-id");
  expect(requestId).toBeTruthy();
  const api = await testApi();
  const rows = await api.database.db
    .select({ action: auditEvents.action })
    .from(auditEvents)
    .where(eq(auditEvents.requestId, requestId!));
  return rows.map((row) => row.action);
}

/** Runs a case and checks it succeeded and recorded its action, exactly once, under its own request id. */
export async function expectAudited(entry: AuditedCase, owner: Tenant, env: CaseEnv): Promise<void> {
  const response = await entry.perform(owner, env);
  expect(response.status, response.text).toBeGreaterThanOrEqual(200);
  expect(response.status, response.text).toBeLessThan(400);
  expect(await actionsOf(response)).toEqual([entry.action]);
}

/** Sends the call and expects it to succeed: a case's setup step. */
export async function ok<T = Record<string, unknown>>(
  method: string,
  path: string,
  options: Parameters<typeof call>[2] = {},
): Promise<Response<T>> {
  const answer = await call<T>(method, path, options);
  expect(answer.status, `${method} ${path}: ${answer.text}`).toBeLessThan(300);
  return answer;
}
