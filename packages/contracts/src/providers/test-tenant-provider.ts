import { z } from "zod";
import { defineOperation, tenantCredentials } from "../operation.ts";

/** Why a test call did not come back: the gateway's own problem for it, as a call of a run would get. */
export const providerTestFailure = z
  .object({
    /** UZ-MODEL-001..006 (none configured, unreachable, timeout, 429, key refused, request refused), UZ-PROVIDER-005, … */
    error_code: z.string(),
    title: z.string(),
    detail: z.string(),
  })
  .meta({ id: "ProviderTestFailure" });

export const testTenantProvider = defineOperation({
  id: "providers.testTenant",
  method: "POST",
  path: "/v1/tenants/me/provider/test",
  summary: "Test the tenant's model provider with one minimal call",
  description:
    "Makes one call of at most one output token through the gateway's own path: the provider the tenant's fleets would use (the tenant's, else the platform default), its endpoint checked and pinned as for a run, the key opened from storage. The test's outcome is the answer, 200 either way: ok with the model and the call's latency, or the problem a run's call would have met (failure.error_code names it). Not charged to any fleet; recorded in the audit log.",
  tags: ["Providers"],
  scope: "workspace:admin",
  credentials: tenantCredentials,
  successStatus: 200,
  output: z
    .object({
      ok: z.boolean(),
      /** Whose provider answered: the tenant's own, or the platform default; null when there is neither. */
      source: z.enum(["tenant", "platform"]).nullable(),
      provider: z.string().nullable(),
      model: z.string().nullable(),
      /** From sending the call to its whole answer; null when no call was sent. */
      latency_ms: z.number().int().nullable(),
      failure: providerTestFailure.nullable(),
    })
    .meta({ id: "ProviderTest" }),
});
