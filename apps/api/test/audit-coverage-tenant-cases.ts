import type { OutputOf } from "@fleet/contracts";
import type { createApiKey } from "@fleet/contracts/api-keys/create-api-key";
import type { createSchedule } from "@fleet/contracts/schedules/create-schedule";
import type { startDeviceSignIn } from "@fleet/contracts/sessions/start-device-sign-in";
import { newId } from "../src/runtime/ids.ts";
import { gateIn, leasedFleet } from "./approval-fixtures.ts";
import { type AuditedCase, ok } from "./audit-coverage-fixtures.ts";
import { chatLinkOf } from "./chat-link-fixtures.ts";
import { installFleet, seedLibraryEntry } from "./fleet-fixtures.ts";
import { grantIn, nowS, pendingGrant, sendDecision } from "./grant-fixtures.ts";
import { call, seedMember, sessionFor, signInLink, type Tenant } from "./harness.ts";
import { API_KEY, catalogueRow } from "./provider-fixtures.ts";
import { endpointIn, PUBLIC_ENDPOINT_URL, pingedEndpoint } from "./webhook-endpoint-fixtures.ts";

const ws = (owner: Tenant) => `/v1/workspaces/${owner.workspaceId}`;
const as = (owner: Tenant, body?: unknown) => ({
  token: owner.apiKey,
  ...(body === undefined ? {} : { body }),
});

async function mintedKey(owner: Tenant): Promise<string> {
  const minted = await ok<OutputOf<typeof createApiKey>>(
    "POST",
    "/v1/api-keys",
    as(owner, { key_name: "k" }),
  );
  return minted.body.id;
}

async function fleetPath(owner: Tenant): Promise<string> {
  return `${ws(owner)}/fleets/${await installFleet(owner)}`;
}

async function schedulePath(owner: Tenant): Promise<string> {
  const fleet = await fleetPath(owner);
  const created = await ok<OutputOf<typeof createSchedule>>(
    "POST",
    `${fleet}/schedules`,
    as(owner, { cron: "0 9 * * *", message: "m" }),
  );
  return `${fleet}/schedules/${created.body.schedule_id}`;
}

async function secretPath(owner: Tenant): Promise<string> {
  await ok("POST", `${ws(owner)}/secrets`, as(owner, { name: "AUDITED", data: { v: 1 } }));
  return `${ws(owner)}/secrets/AUDITED`;
}

/** A pending gate, and a member (there when it opened) who may answer it. */
async function gateAndResolver(owner: Tenant) {
  const member = await seedMember(owner, ["approval:resolve", "approval:read"]);
  const gate = await gateIn(owner);
  return { token: member.token, path: `${ws(owner)}/approvals/${gate.gate_id}` };
}

/** A device sign-in started by a command line, and the owner's console session to answer it. */
async function deviceSignIn(owner: Tenant) {
  const started = await ok<OutputOf<typeof startDeviceSignIn>>("POST", "/v1/auth/sessions", {
    body: { client_name: "fleetctl", client_host: "audit-box" },
  });
  return { ...started.body, session: await sessionFor(owner) };
}

/** Every tenant-plane operation that must record an audit row, performed once by the tenant's owner. */
export const tenantCases: Record<string, Omit<AuditedCase, "plane">> = {
  "apiKeys.create": {
    action: "api_key.mint",
    perform: (o) => call("POST", "/v1/api-keys", as(o, { key_name: "audited" })),
  },
  "apiKeys.update": {
    action: "api_key.revoke",
    perform: async (o) => call("PATCH", `/v1/api-keys/${await mintedKey(o)}`, as(o, { active: false })),
  },
  "apiKeys.delete": {
    action: "api_key.delete",
    perform: async (o) => {
      const id = await mintedKey(o);
      await ok("PATCH", `/v1/api-keys/${id}`, as(o, { active: false }));
      return call("DELETE", `/v1/api-keys/${id}`, as(o));
    },
  },
  "apiKeys.rotate": {
    action: "api_key.rotate",
    perform: async (o) => call("POST", `/v1/api-keys/${await mintedKey(o)}/rotate`, as(o, {})),
  },
  "webhookEndpoints.create": {
    action: "webhook_endpoint.create",
    perform: async (o) =>
      call(
        "POST",
        `${ws(o)}/webhook-endpoints`,
        as(o, { url: PUBLIC_ENDPOINT_URL, event_types: ["event.failed"] }),
      ),
  },
  "webhookEndpoints.update": {
    action: "webhook_endpoint.update",
    perform: async (o) =>
      call("PATCH", `${ws(o)}/webhook-endpoints/${(await endpointIn(o)).id}`, as(o, { enabled: false })),
  },
  "webhookEndpoints.delete": {
    action: "webhook_endpoint.delete",
    perform: async (o) => call("DELETE", `${ws(o)}/webhook-endpoints/${(await endpointIn(o)).id}`, as(o)),
  },
  "webhookEndpoints.rotateSecret": {
    action: "webhook_endpoint.rotate_secret",
    perform: async (o) =>
      call("POST", `${ws(o)}/webhook-endpoints/${(await endpointIn(o)).id}/rotate-secret`, as(o)),
  },
  "webhookEndpoints.retryDelivery": {
    action: "webhook_endpoint.retry_delivery",
    perform: async (o) => {
      const { endpoint, eventId } = await pingedEndpoint(o);
      return call("POST", `${ws(o)}/webhook-endpoints/${endpoint.id}/deliveries/${eventId}/retry`, as(o));
    },
  },
  "webhookEndpoints.replay": {
    action: "webhook_endpoint.replay",
    perform: async (o) =>
      call(
        "POST",
        `${ws(o)}/webhook-endpoints/${(await endpointIn(o)).id}/replay`,
        as(o, { since: Date.now() - 60_000 }),
      ),
  },
  "webhookEndpoints.test": {
    action: "webhook_endpoint.test",
    perform: async (o) =>
      call("POST", `${ws(o)}/webhook-endpoints/${(await endpointIn(o, { enabled: false })).id}/test`, as(o)),
  },
  "fleetKeys.create": {
    action: "fleet_key.mint",
    perform: async (o) =>
      call("POST", `${ws(o)}/fleet-keys`, as(o, { fleet_id: await installFleet(o), key_name: "audited" })),
  },
  "fleetKeys.delete": {
    action: "fleet_key.delete",
    perform: async (o) => {
      const minted = await ok<{ id: string }>(
        "POST",
        `${ws(o)}/fleet-keys`,
        as(o, { fleet_id: await installFleet(o), key_name: "k" }),
      );
      return call("DELETE", `${ws(o)}/fleet-keys/${minted.body.id}`, as(o));
    },
  },
  "chatLinks.delete": {
    action: "chat_link.delete",
    perform: async (o) => call("DELETE", `/v1/tenants/me/chat-links/${await chatLinkOf(o)}`, as(o)),
  },
  "sessions.end": {
    action: "session.end",
    perform: async (o) => call("DELETE", "/v1/auth/sessions/current", { token: await sessionFor(o) }),
  },
  "approvalPolicies.replace": {
    action: "approval_policy.replace",
    perform: (o) =>
      call("PUT", `${ws(o)}/approval-policy`, as(o, { rules: [], escalation_webhook_url: null })),
  },
  "approvals.approve": {
    action: "approval.approve",
    perform: async (o) => {
      const { token, path } = await gateAndResolver(o);
      return call("POST", `${path}/approve`, { token, body: {} });
    },
  },
  "approvals.deny": {
    action: "approval.deny",
    perform: async (o) => {
      const { token, path } = await gateAndResolver(o);
      return call("POST", `${path}/deny`, { token, body: {} });
    },
  },
  "approvals.extend": {
    action: "approval.extend",
    perform: async (o) => {
      const { token, path } = await gateAndResolver(o);
      return call("POST", `${path}/extend`, { token, body: { extend_ms: 1_000, reason: "more time" } });
    },
  },
  "cliCredentials.revoke": {
    action: "cli_credential.revoke",
    perform: async (o) => {
      await sessionFor(o, "cli");
      const listed = await ok<{ items: { id: string }[] }>("GET", "/v1/users/me/cli-credentials", as(o));
      return call("DELETE", `/v1/users/me/cli-credentials/${listed.body.items[0]!.id}`, as(o));
    },
  },
  "billing.updateBudget": {
    action: "fleet.budget.update",
    perform: async (o) => call("PATCH", `${await fleetPath(o)}/budget`, as(o, { period_budget_nanos: 1 })),
  },
  "fleetLibraries.create": {
    action: "fleet_library.create",
    perform: (o) =>
      call("POST", `${ws(o)}/fleet-libraries`, as(o, { definition: "---\nname: Audited\n---\nAnswer.\n" })),
  },
  "fleets.create": {
    action: "fleet.install",
    perform: async (o) =>
      call("POST", `${ws(o)}/fleets`, as(o, { platform_library_id: await seedLibraryEntry() })),
  },
  "fleets.update": {
    action: "fleet.update",
    perform: async (o) => call("PATCH", await fleetPath(o), as(o, { status: "paused" })),
  },
  "fleets.delete": {
    action: "fleet.delete",
    perform: async (o) => call("DELETE", await fleetPath(o), as(o)),
  },
  "integrationGrants.request": {
    action: "integration_grant.request",
    perform: async (o) =>
      call("POST", `${await fleetPath(o)}/integration-requests`, as(o, { service: "github", reason: "PRs" })),
  },
  "integrationGrants.revoke": {
    action: "integration_grant.revoke",
    perform: async (o) => {
      const grant = await grantIn(o);
      return call("DELETE", `${ws(o)}/fleets/${grant.fleet_id}/integration-grants/${grant.grant_id}`, as(o));
    },
  },
  "members.invite": {
    action: "member.invite",
    perform: (o) =>
      call("POST", "/v1/tenants/me/members", as(o, { email: `${newId()}@example.test`, scopes: [] })),
  },
  "members.update": {
    action: "member.update",
    perform: async (o) =>
      call(
        "PATCH",
        `/v1/tenants/me/members/${(await seedMember(o, ["fleet:read"])).userId}`,
        as(o, { scopes: [] }),
      ),
  },
  "members.remove": {
    action: "member.remove",
    perform: async (o) =>
      call("DELETE", `/v1/tenants/me/members/${(await seedMember(o, ["fleet:read"])).userId}`, as(o)),
  },
  "providers.replaceTenant": {
    action: "provider.replace",
    perform: async (o) =>
      call(
        "PUT",
        "/v1/tenants/me/provider",
        as(o, { provider: "anthropic", api_key: API_KEY, model: (await catalogueRow("anthropic")).model_id }),
      ),
  },
  "schedules.create": {
    action: "schedule.create",
    perform: async (o) =>
      call("POST", `${await fleetPath(o)}/schedules`, as(o, { cron: "0 9 * * *", message: "m" })),
  },
  "schedules.update": {
    action: "schedule.update",
    perform: async (o) => call("PATCH", await schedulePath(o), as(o, { status: "paused" })),
  },
  "schedules.delete": {
    action: "schedule.delete",
    perform: async (o) => call("DELETE", await schedulePath(o), as(o)),
  },
  "secrets.create": {
    action: "secret.create",
    perform: (o) => call("POST", `${ws(o)}/secrets`, as(o, { name: "NEW_ONE", data: { v: 1 } })),
  },
  "secrets.replace": {
    action: "secret.replace",
    perform: async (o) => call("PUT", await secretPath(o), as(o, { data: { v: 2 } })),
  },
  "secrets.delete": {
    action: "secret.delete",
    perform: async (o) => call("DELETE", await secretPath(o), as(o)),
  },
  "sessions.approveDeviceSignIn": {
    action: "cli_sign_in.approve",
    perform: async (o) => {
      const { user_code, session } = await deviceSignIn(o);
      return call("POST", "/v1/auth/sessions/approve", { token: session, body: { user_code } });
    },
  },
  "sessions.denyDeviceSignIn": {
    action: "cli_sign_in.deny",
    perform: async (o) => {
      const { user_code, session } = await deviceSignIn(o);
      return call("POST", "/v1/auth/sessions/deny", { token: session, body: { user_code } });
    },
  },
  "sessions.pollDeviceSignIn": {
    action: "cli_credential.issue",
    perform: async (o) => {
      const { user_code, device_code, session } = await deviceSignIn(o);
      await ok("POST", "/v1/auth/sessions/approve", { token: session, body: { user_code } });
      return call("POST", "/v1/auth/sessions/token", { body: { device_code } });
    },
  },
  "sessions.exchangeSignInLink": {
    action: "session.exchange_sign_in_link",
    perform: async (o) =>
      call("POST", "/v1/auth/sign-in-links/exchange", { body: { token: await signInLink(o) } }),
  },
  "webhooks.rotateSecret": {
    action: "webhook_secret.rotate",
    perform: (o) => call("POST", `${ws(o)}/webhook-secret`, as(o)),
  },
  "webhooks.rotateNoticeSecret": {
    action: "notice_secret.rotate",
    perform: (o) => call("POST", `${ws(o)}/notice-secret`, as(o)),
  },
  "webhooks.decideGrant": {
    action: "integration_grant.approve",
    perform: async () => {
      const { secret, fleetId, grantId } = await pendingGrant();
      return sendDecision(fleetId, { grant_id: grantId, decision: "approved" }, secret, nowS());
    },
  },
  "leases.credentials": {
    action: "lease.credentials",
    perform: async (o) => {
      await ok("POST", `${ws(o)}/secrets`, as(o, { name: "AUDITED", data: { token: "audited-value" } }));
      const { runner, lease } = await leasedFleet(o, { credentials: ["AUDITED"] });
      return call("POST", `/v1/runners/me/leases/${lease.lease_id}/credentials`, {
        token: runner.token,
        body: { fencing_token: lease.fencing_token },
      });
    },
  },
  "workspaces.create": {
    action: "workspace.create",
    perform: (o) => call("POST", "/v1/workspaces", as(o, { name: `audited-${newId()}` })),
  },
};
