import type { OutputOf } from "@fleet/contracts";
import type { connectConnector } from "@fleet/contracts/connectors/connect-connector";
import { type FakeChatVendor, startFakeChatVendor, vendorEnv } from "@fleet/testing/fake-chat-vendor";
import { afterAll, beforeAll, expect } from "vitest";
import { call, type Tenant, testApi, useIsolatedApi } from "./harness.ts";

/**
 * Starts a fake chat vendor for the calling file and an API of the file's own pointed at it (the vendor's
 * address is known only once it listens). Answers a getter: the vendor exists once the hooks have run.
 */
export function useFakeVendor(): () => FakeChatVendor {
  let vendor: FakeChatVendor | null = null;
  beforeAll(async () => {
    vendor = await startFakeChatVendor();
  });
  afterAll(async () => {
    await vendor?.close();
  });
  useIsolatedApi(() => vendorEnv(vendor!));
  return () => vendor!;
}

export type Authorization = OutputOf<typeof connectConnector>;

export const connectorPath = (tenant: Tenant) => `/v1/workspaces/${tenant.workspaceId}/connectors/slack`;

export async function startConnect(tenant: Tenant, token = tenant.apiKey) {
  const started = await call<Authorization>("POST", `${connectorPath(tenant)}/connect`, { token });
  expect(started.status, started.text).toBe(200);
  return started.body;
}

/** The browser's trip back from the vendor: the callback URL, its redirect not followed. */
export async function followCallback(callbackUrl: string) {
  const url = new URL(callbackUrl);
  const api = await testApi();
  return fetch(`${api.baseUrl}${url.pathname}${url.search}`, { redirect: "manual" });
}

/** Connects the tenant's workspace to the fake vendor (consent given), in `team` or a fresh one. */
export async function connectSlack(
  vendor: FakeChatVendor,
  tenant: Tenant,
  team?: { id: string; name: string },
) {
  const { authorize_url } = await startConnect(tenant);
  const response = await followCallback(vendor.consent(authorize_url, team));
  expect(response.status, await response.clone().text()).toBe(303);
  return response;
}
