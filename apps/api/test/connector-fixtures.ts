import type { OutputOf } from "@fleet/contracts";
import type { connectConnector } from "@fleet/contracts/connectors/connect-connector";
import { type FakeChatVendor, startFakeChatVendor, vendorEnv } from "@fleet/testing/fake-chat-vendor";
import { type FakeKeyVendor, keyVendorEnv, startFakeKeyVendor } from "@fleet/testing/fake-key-vendor";
import { afterAll, beforeAll, expect } from "vitest";
import { call, type Tenant, testApi, useIsolatedApi } from "./harness.ts";

/**
 * Starts the fake vendors for the calling file (the chat vendor and the API-key connector's) and an API
 * of the file's own pointed at them (a vendor's address is known only once it listens). Answers getters:
 * the vendors exist once the hooks have run.
 */
export function useFakeVendors(
  /** More of the API's settings (another fake's address), read when it starts. */
  more: () => Record<string, string> = () => ({}),
): { chat: () => FakeChatVendor; keys: () => FakeKeyVendor } {
  let chat: FakeChatVendor | null = null;
  let keys: FakeKeyVendor | null = null;
  beforeAll(async () => {
    [chat, keys] = await Promise.all([startFakeChatVendor(), startFakeKeyVendor()]);
  });
  afterAll(async () => {
    await Promise.all([chat?.close(), keys?.close()]);
  });
  useIsolatedApi(() => ({ ...vendorEnv(chat!), ...keyVendorEnv(keys!), ...more() }));
  return { chat: () => chat!, keys: () => keys! };
}

/** `useFakeVendors`, for a file that needs only the chat vendor. */
export function useFakeVendor(): () => FakeChatVendor {
  return useFakeVendors().chat;
}

/** What a chat provider's connect answers (an API-key provider's answers its state instead). */
export type Authorization = Extract<OutputOf<typeof connectConnector>, { authorize_url: string }>;

export const connectorPath = (tenant: Tenant) => `/v1/workspaces/${tenant.workspaceId}/connectors/slack`;

/**
 * The cookies of the browser that started each connect, by its state: the binding cookie the connect set
 * and the console session of its starter (here the credential that started it, as a console signed in
 * with a pasted key holds it).
 */
const browsers = new Map<string, string>();

/** The binding cookie (`name=value`) a connect's answer sets. */
export function bindingCookieOf(headers: Headers): string {
  const line = headers.getSetCookie().find((cookie) => cookie.startsWith("fleet_connect_"));
  expect(line, "the connect sets its binding cookie").toBeDefined();
  return line!.split(";")[0]!;
}

export async function startConnect(tenant: Tenant, token = tenant.apiKey) {
  const started = await call<Authorization>("POST", `${connectorPath(tenant)}/connect`, { token });
  expect(started.status, started.text).toBe(200);
  browsers.set(started.body.state, `fleet_session=${token}; ${bindingCookieOf(started.headers)}`);
  return started.body;
}

/**
 * The browser's trip back from the vendor: the callback URL, its redirect not followed. By default in the
 * browser that started the connect (its cookies, found by the URL's state); `cookie` names another one's.
 */
export async function followCallback(callbackUrl: string, cookie?: string | null) {
  const url = new URL(callbackUrl);
  const api = await testApi();
  const jar = cookie === undefined ? browsers.get(url.searchParams.get("state") ?? "") : cookie;
  return fetch(`${api.baseUrl}${url.pathname}${url.search}`, {
    redirect: "manual",
    headers: jar ? { cookie: jar } : {},
  });
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
