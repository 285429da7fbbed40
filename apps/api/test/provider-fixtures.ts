import type { OutputOf } from "@fleet/contracts";
import type { createModel } from "@fleet/contracts/models/create-model";
import { expect } from "vitest";
import { newId } from "../src/runtime/ids.ts";
import { call, operatorToken, type Tenant } from "./harness.ts";

/** A key that must never be seen again: not in a response, not in the log, not in the database. */
export const API_KEY = `sk-ant-never-leak-${newId()}`;

const pricing = {
  context_cap_tokens: 200_000,
  input_nanos_per_mtok: 3_000_000_000,
  cached_input_nanos_per_mtok: 300_000_000,
  output_nanos_per_mtok: 15_000_000_000,
};

/** A catalogue row of its own (the catalogue is shared by every test on the database). */
export async function catalogueRow(provider: string): Promise<{ uid: string; model_id: string }> {
  const created = await call<OutputOf<typeof createModel>>("POST", "/v1/admin/models", {
    token: await operatorToken(["model:write"]),
    body: { provider, model_id: `${provider}-model-${newId()}`, ...pricing },
  });
  expect(created.status, created.text).toBe(201);
  return created.body;
}

export function setProvider(tenant: Tenant, body: Record<string, unknown>) {
  return call("PUT", "/v1/tenants/me/provider", { token: tenant.apiKey, body });
}
