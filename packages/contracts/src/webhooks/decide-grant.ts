import { z } from "zod";
import { epochMs, uuidv7 } from "../common.ts";
import { grantStatuses } from "../integration-grants/integration-grant.ts";
import { defineOperation } from "../operation.ts";
import { webhookSecretDescription } from "./webhook-secret.ts";

const signatureHeader = (field: string) =>
  z
    .string({ error: `${field} must be a string` })
    .max(256, { error: `${field} is too long` })
    .optional();

export const decideGrant = defineOperation({
  id: "webhooks.decideGrant",
  method: "POST",
  path: "/v1/webhooks/{fleet_id}/grant-approval",
  summary: "Decide an integration grant (signed webhook)",
  description: `A person's decision on a pending grant, sent by a system that holds the fleet's workspace webhook secret (the incoming one: the notice secret that signs the service's own notices does not verify here); no bearer token. ${webhookSecretDescription} nonce is single-use per workspace. approved approves the grant, denied revokes it; the grant's open inbox gate is decided with it (resolved_by webhook:grant-approval). The gate's approval policy governs it too: a gate whose rule names its approvers or takes more than one approval is answered by people, in the inbox (409 UZ-APPROVAL-009). Any refusal changes nothing: 401 UZ-WEBHOOK-001/002/003/006 (an unknown fleet answers as a signature that does not verify), 404 UZ-GRANT-001 (unknown grant), 409 UZ-WEBHOOK-004 (nonce replayed), UZ-GRANT-002 (grant not pending) or UZ-APPROVAL-009.`,
  tags: ["Webhooks"],
  scope: null,
  credentials: [],
  successStatus: 200,
  errorStatuses: [401, 409],
  bodyLimit: 4 * 1024,
  params: { fleet_id: uuidv7("fleet_id") },
  requestHeaders: {
    x_signature_timestamp: signatureHeader("x-signature-timestamp"),
    x_signature: signatureHeader("x-signature"),
  },
  body: {
    grant_id: uuidv7("grant_id"),
    decision: z.enum(["approved", "denied"], { error: "decision must be approved or denied" }),
    nonce: z.string({ error: "nonce must be a string" }).regex(/^[A-Za-z0-9_.:-]{8,128}$/, {
      error: "nonce must be 8-128 letters, digits, _ . : or -",
    }),
  },
  output: z
    .object({
      grant_id: z.string(),
      fleet_id: z.string(),
      service: z.string(),
      status: z.enum(grantStatuses),
      decided_at: epochMs,
      decided_by: z.string(),
    })
    .meta({ id: "GrantDecision" }),
});
