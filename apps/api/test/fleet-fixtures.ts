import type { OutputOf } from "@fleet/contracts";
import type { createFleet } from "@fleet/contracts/fleets/create-fleet";
import type { messageFleet as messageOperation } from "@fleet/contracts/fleets/message-fleet";
import { eq, fleetEvents, fleetLibraries, type LibraryTrigger } from "@fleet/db";
import { expect } from "vitest";
import { newId } from "../src/runtime/ids.ts";
import { bootstrapTenant } from "../src/services/tenants/tenants.ts";
import { call, callAt, type Tenant, type TestApi, testApi } from "./harness.ts";

/**
 * A library entry written straight to the store: the fleets tests need entries, and how entries are
 * created (upload, git) is the fleet-libraries suite's subject.
 */
export async function seedLibraryEntry(
  options: {
    owner?: Tenant;
    name?: string;
    credentials?: string[];
    triggers?: LibraryTrigger[];
    runnerLabels?: string[];
    /** An API of the caller's own (its own database); the shared one otherwise. */
    on?: TestApi;
  } = {},
): Promise<string> {
  const api = options.on ?? (await testApi());
  const id = newId();
  const credentials = options.credentials ?? [];
  await api.database.db.insert(fleetLibraries).values({
    id,
    visibility: options.owner ? "tenant" : "platform",
    tenantId: options.owner?.tenantId ?? null,
    workspaceId: options.owner?.workspaceId ?? null,
    name: options.name ?? `fleet-${id.slice(-8)}`,
    description: "A fleet for tests",
    instructions: "Answer every message with its text.",
    triggers: options.triggers ?? [],
    requirements: {
      credentials,
      tools: [],
      network_hosts: [],
      runner_labels: options.runnerLabels ?? [],
    },
    credentialReasons: Object.fromEntries(credentials.map((name) => [name, `The fleet calls ${name}.`])),
    sourceRef: "upload:sha256:test",
    createdAt: Date.now(),
  });
  return id;
}

/** Installs a fleet from the platform entry and answers its id. */
export async function installFromEntry(owner: Tenant, platform_library_id: string, name?: string) {
  const created = await call<OutputOf<typeof createFleet>>(
    "POST",
    `/v1/workspaces/${owner.workspaceId}/fleets`,
    {
      token: owner.apiKey,
      body: { platform_library_id, ...(name ? { name } : {}) },
    },
  );
  expect(created.status, created.text).toBe(201);
  return created.body.fleet_id;
}

/** Installs a fleet from a fresh platform entry and answers its id. */
export async function installFleet(owner: Tenant, name?: string): Promise<string> {
  return installFromEntry(owner, await seedLibraryEntry(), name);
}

/** A runner label of the caller's own. */
export const uniqueLabel = () => `t-${Math.random().toString(36).slice(2, 10)}`;

/** A fleet only runners carrying `label` may lease, so tests do not lease each other's work. */
export async function labelledFleet(owner: Tenant, label: string): Promise<string> {
  return installFromEntry(owner, await seedLibraryEntry({ runnerLabels: [label] }));
}

/** Sends a message and answers the event id. */
export async function messageFleet(
  owner: Tenant,
  fleetId: string,
  message = "hello",
  token = owner.apiKey,
): Promise<string> {
  const sent = await call<OutputOf<typeof messageOperation>>(
    "POST",
    `/v1/workspaces/${owner.workspaceId}/fleets/${fleetId}/messages`,
    { token, body: { message } },
  );
  expect(sent.status, sent.text).toBe(202);
  return sent.body.event_id;
}

/**
 * Marks an event finished as a runner's report would (the leases suite covers the report itself), for the
 * tests that need a finished event and not the lease that finished it.
 */
export async function finishEvent(eventId: string, status: "processed" | "fleet_error" = "processed") {
  const api = await testApi();
  await api.database.db
    .update(fleetEvents)
    .set({ status, responseText: status === "processed" ? "done" : null, updatedAt: Date.now() })
    .where(eq(fleetEvents.id, eventId));
}

/** A tenant with one fleet on an API of the caller's own (its own database), not the shared one. */
export async function seedFleetOn(
  api: TestApi,
): Promise<{ apiKey: string; workspaceId: string; fleetId: string }> {
  const tenant = await bootstrapTenant(api.app.services, {
    tenantName: `own-${newId()}`,
    email: `owner-${newId()}@example.test`,
  });
  const entry = await seedLibraryEntry({ on: api });
  const fleet = await callAt<OutputOf<typeof createFleet>>(
    api.baseUrl,
    "POST",
    `/v1/workspaces/${tenant.workspace_id}/fleets`,
    { token: tenant.api_key, body: { platform_library_id: entry } },
  );
  expect(fleet.status, fleet.text).toBe(201);
  return { apiKey: tenant.api_key, workspaceId: tenant.workspace_id, fleetId: fleet.body.fleet_id };
}
