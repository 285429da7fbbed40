import { z } from "zod";
import { epochMs, uuidv7 } from "../common.ts";
import { requirementMarks } from "../fleet-libraries/library.ts";
import { workspaceParam } from "../workspaces/workspace-param.ts";
import { fleetStatuses } from "./values.ts";

export { type FleetStatus, fleetStatuses } from "./values.ts";

/** Statuses a person may ask for; `installing` is the service's own. */
export const fleetTargetStatuses = ["active", "paused", "stopped", "killed"] as const;

/** `{workspace_id, fleet_id}`: the path of every fleet-scoped route. */
export const fleetParams = { ...workspaceParam, fleet_id: uuidv7("fleet_id") };

/** A fleet as lists show it (the field names older clients read). */
export const fleetItem = z
  .object({
    id: z.string(),
    name: z.string(),
    status: z.enum(fleetStatuses),
    created_at: epochMs,
    updated_at: epochMs,
    events_processed: z.number().int(),
    budget_used_nanos: z.number().int(),
  })
  .meta({ id: "FleetItem" });

const trigger = z.object({ cron: z.string(), timezone: z.string(), message: z.string() });

/** One fleet, in full. */
export const fleetView = fleetItem
  .extend({
    fleet_id: z.string(),
    workspace_id: z.string(),
    /** Strong tag of this version; send it as If-Match to change the fleet only if nobody else has. */
    etag: z.string(),
    platform_library_id: z.string().nullable(),
    tenant_library_id: z.string().nullable(),
    instructions: z.string(),
    /** The definition's `model:` (the gateway's choice when the tenant's provider has it), else null. */
    model: z.string().nullable(),
    triggers: z.array(trigger),
    requirements: z.object({
      credentials: z.array(z.string()),
      tools: z.array(z.string()),
      network_hosts: z.array(z.string()),
      runner_labels: z.array(z.string()),
      ...requirementMarks,
    }),
  })
  .meta({ id: "Fleet" });

/** A fleet name: as library names, up to 200 bytes, no control characters. */
export const fleetName = z
  .string({ error: "name must be a string" })
  .trim()
  .min(1, { error: "name must not be empty" })
  .refine((value) => Buffer.byteLength(value) <= 200, { error: "name must be at most 200 bytes" })
  // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
  .refine((value) => !/[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/.test(value), {
    error: "name must not contain control or bidirectional characters",
  });
