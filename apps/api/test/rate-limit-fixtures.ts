import type { OutputOf } from "@fleet/contracts";
import type { createApiKey } from "@fleet/contracts/api-keys/create-api-key";
import { expect } from "vitest";
import { newId } from "../src/runtime/ids.ts";
import { bootstrapTenant } from "../src/services/tenants/tenants.ts";
import { callAt, type Response, type TestApi } from "./harness.ts";

type Minted = OutputOf<typeof createApiKey>;

/** The quotas of the limited instances: a 2 s window, so a spent token comes back within a second. */
export const WINDOW_S = 2;
export const WORKSPACE_QUOTA = 5;
export const LIMITED = {
  FLEET_RATE_LIMIT_WINDOW_SECONDS: String(WINDOW_S),
  FLEET_RATE_LIMIT_WORKSPACE: String(WORKSPACE_QUOTA),
  FLEET_RATE_LIMIT_CREDENTIAL: "1000",
};

export interface Seeded {
  tenantId: string;
  workspaceId: string;
  userId: string;
  email: string;
  apiKey: string;
}

/** A tenant made through the given instance (on PGlite each instance has a database of its own). */
export async function seed(api: TestApi): Promise<Seeded> {
  const email = `limits-${newId()}@example.test`;
  const made = await bootstrapTenant(api.app.services, { tenantName: "limits", email });
  return {
    tenantId: made.tenant_id,
    workspaceId: made.workspace_id,
    userId: made.user_id,
    email,
    apiKey: made.api_key,
  };
}

export async function mint(api: TestApi, tenant: Seeded, body: Record<string, unknown>) {
  return callAt<Minted>(api.baseUrl, "POST", "/v1/api-keys", { token: tenant.apiKey, body });
}

export function expectRefusal(answer: Response, detail: RegExp) {
  expect(answer.status, answer.text).toBe(429);
  expect(answer.headers.get("content-type")).toMatch(/^application\/problem\+json/);
  expect(answer.body).toMatchObject({ error_code: "UZ-API-001" });
  expect(String(answer.body.detail)).toMatch(detail);
  const retryAfter = answer.headers.get("retry-after");
  expect(retryAfter).toMatch(/^[1-9]\d*$/);
  return Number(retryAfter);
}

export function limitHeaders(answer: Response) {
  return {
    limit: answer.headers.get("ratelimit-limit"),
    remaining: answer.headers.get("ratelimit-remaining"),
    reset: answer.headers.get("ratelimit-reset"),
  };
}
