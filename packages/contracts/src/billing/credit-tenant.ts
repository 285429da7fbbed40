import { z } from "zod";
import { displayName, epochMs, uuidv7 } from "../common.ts";
import { defineOperation } from "../operation.ts";

/** The largest single credit: a million currency units, in nanos (a typo guard, not a policy). */
export const MAX_CREDIT_NANOS = 1_000_000 * 1_000_000_000;

export const creditTenant = defineOperation({
  id: "billing.credit",
  method: "POST",
  path: "/v1/admin/tenants/{tenant_id}/credits",
  summary: "Add credit to a tenant's balance",
  description:
    "Operator route. Adds amount_nanos to the tenant's balance. reference (an invoice or payment id) makes a retry safe: the same reference and amount answers the first credit with 200; the same reference with another amount answers 409 UZ-BILLING-002. An unknown tenant answers 404 UZ-BILLING-001.",
  tags: ["Billing"],
  scope: "credit:write",
  credentials: ["operator"],
  successStatus: 201,
  otherSuccesses: { 200: "a retry of a credit already applied (same reference and amount)" },
  errorStatuses: [409],
  params: { tenant_id: uuidv7("tenant_id") },
  body: {
    amount_nanos: z
      .number({ error: "amount_nanos must be an integer number of nanos" })
      .int({ error: "amount_nanos must be an integer number of nanos" })
      .min(1, { error: "amount_nanos must be at least 1" })
      .max(MAX_CREDIT_NANOS, { error: `amount_nanos must be at most ${MAX_CREDIT_NANOS}` }),
    reference: displayName("reference", 200),
    note: z.string().max(1000, { error: "note must be at most 1000 characters" }).optional(),
  },
  output: z
    .object({
      credit_id: z.string(),
      tenant_id: z.string(),
      amount_nanos: z.number().int(),
      reference: z.string(),
      balance_nanos: z.number().int(),
      created_at: epochMs,
    })
    .meta({ id: "Credit" }),
});
