import type { OutputOf } from "@fleet/contracts";
import type { createModel } from "@fleet/contracts/models/create-model";
import type { enrollRunner } from "@fleet/contracts/runners/enroll-runner";
import { newId } from "../src/runtime/ids.ts";
import { type AuditedCase, type CaseEnv, ok } from "./audit-coverage-fixtures.ts";
import {
  click,
  consoleMember,
  ephemeralFor,
  gatePosted,
  linkToken,
  redeem,
  routedFleet,
  sendClick,
} from "./chat-link-fixtures.ts";
import { connectorPath, connectSlack } from "./connector-fixtures.ts";
import { installFleet } from "./fleet-fixtures.ts";
import { call, operatorToken, seedTenant, type Tenant } from "./harness.ts";
import { API_KEY, catalogueRow } from "./provider-fixtures.ts";

const pricing = {
  context_cap_tokens: 200_000,
  input_nanos_per_mtok: 3_000_000_000,
  cached_input_nanos_per_mtok: 300_000_000,
  output_nanos_per_mtok: 15_000_000_000,
};

async function operator(scope: string) {
  return { token: await operatorToken([scope]) };
}

async function modelUid(): Promise<string> {
  return (await catalogueRow("anthropic")).uid;
}

async function runnerId(): Promise<string> {
  const enrolled = await ok<OutputOf<typeof enrollRunner>>("POST", "/v1/runners", {
    ...(await operator("runner:write")),
    body: { host_id: `audit-${newId()}`, assigned_policy: { sandbox_tier: "landlock_full" }, labels: [] },
  });
  return enrolled.body.runner_id;
}

/** The platform's default, read from a provider_api_key secret of a workspace of its own. */
async function setPlatformKey() {
  const source = await seedTenant("platform");
  await ok("POST", `/v1/workspaces/${source.workspaceId}/secrets`, {
    token: source.apiKey,
    body: { name: "ANTHROPIC_API_KEY", kind: "provider_api_key", data: { api_key: API_KEY } },
  });
  return call("PUT", "/v1/admin/platform-keys", {
    ...(await operator("platform-key:write")),
    body: {
      provider: "anthropic",
      source_workspace_id: source.workspaceId,
      model: (await catalogueRow("anthropic")).model_id,
    },
  });
}

/**
 * Operator-plane operations (global state: run on an API of their own) and the tenant operations whose
 * success needs the platform default or a vendor (the fakes, on that same API).
 */
export const otherCases: Record<string, AuditedCase> = {
  "billing.credit": {
    plane: "operator",
    action: "billing.credit",
    perform: async (o) =>
      call("POST", `/v1/admin/tenants/${o.tenantId}/credits`, {
        ...(await operator("credit:write")),
        body: { amount_nanos: 1_000, reference: `audit-${newId()}` },
      }),
  },
  "fleetLibraries.createPlatform": {
    plane: "operator",
    action: "fleet_library.create_platform",
    perform: async () =>
      call("POST", "/v1/admin/fleet-libraries", {
        ...(await operator("platform-library:write")),
        body: { definition: `---\nname: Platform ${newId()}\n---\nAnswer.\n` },
      }),
  },
  "models.create": {
    plane: "operator",
    action: "model.create",
    perform: async () =>
      call<OutputOf<typeof createModel>>("POST", "/v1/admin/models", {
        ...(await operator("model:write")),
        body: { provider: "anthropic", model_id: `audited-${newId()}`, ...pricing },
      }),
  },
  "models.update": {
    plane: "operator",
    action: "model.update",
    perform: async () =>
      call("PATCH", `/v1/admin/models/${await modelUid()}`, {
        ...(await operator("model:write")),
        body: { context_cap_tokens: 100_000 },
      }),
  },
  "models.delete": {
    plane: "operator",
    action: "model.delete",
    perform: async () =>
      call("DELETE", `/v1/admin/models/${await modelUid()}`, await operator("model:admin")),
  },
  "providers.replacePlatformKey": {
    plane: "operator",
    action: "platform_key.replace",
    perform: setPlatformKey,
  },
  "providers.deleteTenant": {
    plane: "operator",
    action: "provider.delete",
    perform: async (o) => {
      await ok("PUT", "/v1/tenants/me/provider", {
        token: o.apiKey,
        body: { provider: "anthropic", api_key: API_KEY, model: (await catalogueRow("anthropic")).model_id },
      });
      // Returning to the platform default needs one.
      await setPlatformKey();
      return call("DELETE", "/v1/tenants/me/provider", { token: o.apiKey });
    },
  },
  "providers.testTenant": {
    plane: "vendor",
    action: "provider.test",
    perform: async (o) => {
      // The fake model vendor refuses this key: the test still answers (200, not ok) and is recorded.
      await ok("PUT", "/v1/tenants/me/provider", {
        token: o.apiKey,
        body: { provider: "openai", api_key: API_KEY, model: (await catalogueRow("openai")).model_id },
      });
      return call("POST", "/v1/tenants/me/provider/test", { token: o.apiKey });
    },
  },
  "runners.enroll": {
    plane: "operator",
    action: "runner.enroll",
    perform: async () =>
      call("POST", "/v1/runners", {
        ...(await operator("runner:write")),
        body: { host_id: `audit-${newId()}`, assigned_policy: { sandbox_tier: "landlock_full" }, labels: [] },
      }),
  },
  "runners.update": {
    plane: "operator",
    action: "runner.update",
    perform: async () =>
      call("PATCH", `/v1/fleets/runners/${await runnerId()}`, {
        ...(await operator("runner:write")),
        body: { status: "cordoned" },
      }),
  },
  "runners.delete": {
    plane: "operator",
    action: "runner.delete",
    perform: async () => {
      const id = await runnerId();
      const admin = await operator("runner:admin");
      await ok("PATCH", `/v1/fleets/runners/${id}`, { ...admin, body: { status: "revoked" } });
      return call("DELETE", `/v1/fleets/runners/${id}`, admin);
    },
  },
  "chatLinks.redeem": {
    plane: "vendor",
    action: "chat_link.create",
    perform: async (o, env) => {
      // A click of an unlinked chat user is answered with a one-time link, which the member redeems.
      const vendor = env.chat();
      const { team, leased } = await routedFleet(vendor, o);
      const { gateId, message } = await gatePosted(vendor, leased);
      const since = vendor.ephemeral.length;
      await sendClick(vendor, click(team.id, gateId, message, "approve", "UAUDIT"));
      const told = await ephemeralFor(vendor, "UAUDIT", since);
      return redeem(linkToken(told.text), (await consoleMember(o, ["approval:resolve"])).token);
    },
  },
  "connectors.connect": {
    plane: "vendor",
    action: "connector.connect",
    perform: (o, env) =>
      call("POST", `/v1/workspaces/${o.workspaceId}/connectors/datadog/connect`, {
        token: o.apiKey,
        body: { api_key: env.keys().issueKey() },
      }),
  },
  "connectors.delete": {
    plane: "vendor",
    action: "connector.disconnect",
    perform: async (o, env) => {
      await connectSlack(env.chat(), o);
      return call("DELETE", connectorPath(o), { token: o.apiKey });
    },
  },
  "connectors.setRoute": {
    plane: "vendor",
    action: "connector.route",
    perform: async (o, env) => routed(o, env),
  },
  "connectors.deleteRoute": {
    plane: "vendor",
    action: "connector.unroute",
    perform: async (o, env) => {
      await routed(o, env);
      return call("DELETE", `${connectorPath(o)}/routes/C1`, { token: o.apiKey });
    },
  },
};

/** Connects the chat provider and routes channel C1 to a fresh fleet. */
async function routed(o: Tenant, env: CaseEnv) {
  await connectSlack(env.chat(), o, { id: `T-${o.tenantId}`, name: "Audit team" });
  return call("PUT", `${connectorPath(o)}/routes/C1`, {
    token: o.apiKey,
    body: { fleet_id: await installFleet(o) },
  });
}
