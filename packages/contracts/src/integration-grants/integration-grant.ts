import { z } from "zod";
import { cursorParam, epochMs, queryInt, uuidv7 } from "../common.ts";
import { fleetParams } from "../fleets/fleet.ts";

export const grantStatuses = ["pending", "approved", "revoked"] as const;
export type GrantStatus = (typeof grantStatuses)[number];

/** A grant's request opens a gate of this kind in the approvals inbox. */
export const GRANT_GATE_KIND = "integration_grant";

/** Who decides a grant through the signed webhook, as `decided_by` and the gate's `resolved_by` name it. */
export const GRANT_WEBHOOK_RESOLVER = "webhook:grant-approval";

export const grantParams = { ...fleetParams, grant_id: uuidv7("grant_id") };

/** A service's slug: what the fleet asks to use (`github`, `slack`, `google-drive`). */
export const serviceField = z
  .string({ error: "service must be a string" })
  .regex(/^[a-z][a-z0-9_.-]{0,63}$/, {
    error: "service must be 1-64 lowercase letters, digits, _ . or -, starting with a letter",
  });

/** Why the fleet asks: shown to the approver. */
export const grantReason = z
  .string({ error: "reason must be a string" })
  .trim()
  .min(1, { error: "reason must not be empty" })
  .max(2000, { error: "reason must be at most 2000 characters" });

/** A grant as the fleet's list shows it. */
export const integrationGrant = z
  .object({
    grant_id: z.string(),
    fleet_id: z.string(),
    workspace_id: z.string(),
    service: z.string(),
    status: z.enum(grantStatuses),
    reason: z.string(),
    requested_at: epochMs,
    requested_by: z.string(),
    /** `user:<id>`, `api_key:<id>` or `webhook:grant-approval`; null while pending. */
    decided_by: z.string().nullable(),
    decided_at: epochMs.nullable(),
    /** The `integration_grant` gate of the latest request, answered in the approvals inbox. */
    gate_id: z.string().nullable(),
    created_at: epochMs,
  })
  .meta({ id: "IntegrationGrant" });
export type IntegrationGrant = z.infer<typeof integrationGrant>;

export const grantListQuery = {
  status: z.enum(grantStatuses, { error: "status must be pending, approved or revoked" }).optional(),
  starting_after: cursorParam.optional(),
  limit: queryInt("limit", 1, 200).default(50),
};
