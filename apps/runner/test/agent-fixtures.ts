import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { OutputOf } from "@fleet/contracts";
import type { approveApproval } from "@fleet/contracts/approvals/approve-approval";
import type { denyApproval } from "@fleet/contracts/approvals/deny-approval";
import type { listApprovals } from "@fleet/contracts/approvals/list-approvals";
import {
  type FakeModelVendor,
  modelVendorEnv,
  startFakeModelVendor,
  type VendorCall,
} from "@fleet/testing/fake-model-vendor";
import { afterAll, beforeAll, expect } from "vitest";
import { api, type Fleet, live, until, useApi } from "./harness.ts";

/** The model the tenant's provider names; the catalogue prices it. */
export const MODEL = "gpt-4o-mini";

/** Makes the tenant's provider the fake vendor (openai wire, its key) and prices its model. */
export async function useVendorAsProvider(vendor: FakeModelVendor): Promise<void> {
  const model = await api("POST", "/v1/admin/models", live.operatorToken, {
    provider: "openai",
    model_id: MODEL,
    context_cap_tokens: 128_000,
    input_nanos_per_mtok: 3_000_000_000,
    cached_input_nanos_per_mtok: 300_000_000,
    output_nanos_per_mtok: 15_000_000_000,
  });
  expect(model.status, JSON.stringify(model.body)).toBe(201);
  const provider = await api("PUT", "/v1/tenants/me/provider", live.tenant.api_key, {
    provider: "openai",
    model: MODEL,
    api_key: vendor.apiKey,
  });
  expect(provider.status, JSON.stringify(provider.body)).toBe(200);
}

/** Stores a workspace secret the fleets may declare. */
export async function storeSecret(name: string, data: Record<string, string>): Promise<void> {
  const created = await api(
    "POST",
    `/v1/workspaces/${live.tenant.workspace_id}/secrets`,
    live.tenant.api_key,
    {
      name,
      data,
    },
  );
  expect(created.status, JSON.stringify(created.body)).toBe(201);
}

/** A local HTTP service the agent's http_request reaches: records each request, echoes its headers. */
export interface EchoService {
  port: number;
  requests: { method: string; path: string; headers: IncomingHttpHeaders }[];
  close(): Promise<void>;
}

export async function startEchoService(): Promise<EchoService> {
  const requests: EchoService["requests"] = [];
  const server: Server = createServer((request, response) => {
    requests.push({ method: request.method ?? "GET", path: request.url ?? "/", headers: request.headers });
    response.writeHead(200, { "content-type": "application/json" });
    response.end(
      JSON.stringify({ repos: ["alpha", "beta"], you_sent: request.headers.authorization ?? null }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  return {
    port: typeof address === "object" && address ? address.port : 0,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** The completion calls the vendor received since `from` (an index into its calls). */
export function completions(vendor: FakeModelVendor, from: number): VendorCall[] {
  return vendor.calls.slice(from).filter((call) => call.path === "/v1/chat/completions");
}

interface ChatMessage {
  role: string;
  content?: unknown;
  tool_call_id?: string;
}

/** The messages of a completion call, as the vendor received them. */
export function messagesOf(call: VendorCall): ChatMessage[] {
  return (call.body as { messages: ChatMessage[] }).messages;
}

export interface StreamedFrame {
  kind: string;
  data: Record<string, unknown>;
}

/**
 * Tails the fleet's live stream (SSE) until `stop` is called: the frames it saw, in order. Opened before
 * the message is sent, so the run's frames are all seen.
 */
export async function tailFleet(fleet: Fleet): Promise<{ frames: StreamedFrame[]; stop(): void }> {
  const frames: StreamedFrame[] = [];
  const controller = new AbortController();
  const response = await fetch(
    `${live.baseUrl}/v1/workspaces/${live.tenant.workspace_id}/fleets/${fleet.fleetId}/events/stream`,
    { headers: { authorization: `Bearer ${live.tenant.api_key}` }, signal: controller.signal },
  );
  expect(response.status).toBe(200);
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let opened: () => void;
  const hello = new Promise<void>((resolve) => {
    opened = resolve;
  });
  void (async () => {
    let buffer = "";
    for (;;) {
      const { done, value } = await reader.read().catch(() => ({ done: true, value: undefined }));
      if (done) return;
      buffer += value;
      let end = buffer.indexOf("\n\n");
      while (end >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const kind = /^event: (.*)$/m.exec(block)?.[1];
        const data = /^data: (.*)$/m.exec(block)?.[1];
        if (kind === "hello") opened!();
        else if (kind && data) frames.push({ kind, data: JSON.parse(data) as Record<string, unknown> });
        end = buffer.indexOf("\n\n");
      }
    }
  })();
  await hello;
  return { frames, stop: () => controller.abort() };
}

/** The fake model vendor playing the model and the local service playing the outside world. */
export interface AgentWorld {
  vendor: FakeModelVendor;
  service: EchoService;
}

/**
 * For a test file: starts the vendor and the service, the API with the vendor as the tenant's provider,
 * and closes them after. The world's members are set once the hooks have run.
 */
export function useAgentWorld(): AgentWorld {
  const world = {} as AgentWorld;
  beforeAll(async () => {
    world.vendor = await startFakeModelVendor();
    world.service = await startEchoService();
  });
  useApi(() => modelVendorEnv(world.vendor));
  beforeAll(() => useVendorAsProvider(world.vendor));
  afterAll(async () => {
    await world.vendor?.close();
    await world.service?.close();
  });
  return world;
}

/** A model answer that calls one tool (the fake vendor's script step). */
export const toolCall = (id: string, name: string, args: Record<string, unknown>) => ({
  kind: "answer" as const,
  toolCalls: [{ id, name, arguments: JSON.stringify(args) }],
});

export type Gate = OutputOf<typeof listApprovals>["items"][number];

/** The fleet's pending gate, once it is in the inbox. */
export function pendingGate(fleet: Fleet): Promise<Gate> {
  return until("the tool call's gate", async () => {
    const page = await api<OutputOf<typeof listApprovals>>(
      "GET",
      `/v1/workspaces/${live.tenant.workspace_id}/approvals?fleet_id=${fleet.fleetId}`,
      live.tenant.api_key,
    );
    expect(page.status).toBe(200);
    return page.body.items.find((gate) => gate.status === "pending");
  });
}

/** Approves a gate as the tenant's owner (`body`: an amended_action, say); answers the route's answer. */
export function approveGate(gateId: string, body: Record<string, unknown> = {}) {
  return api<OutputOf<typeof approveApproval>>(
    "POST",
    `/v1/workspaces/${live.tenant.workspace_id}/approvals/${gateId}/approve`,
    live.tenant.api_key,
    body,
  );
}

/** Denies a gate as the tenant's owner, with `reason` as the approver's comment; answers the route's answer. */
export function denyGate(gateId: string, reason: string) {
  return api<OutputOf<typeof denyApproval>>(
    "POST",
    `/v1/workspaces/${live.tenant.workspace_id}/approvals/${gateId}/deny`,
    live.tenant.api_key,
    { reason },
  );
}
