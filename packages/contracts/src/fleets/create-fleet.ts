import { z } from "zod";
import { epochMs, uuidv7 } from "../common.ts";
import { defineOperation, tenantCredentials } from "../operation.ts";
import { workspaceParam } from "../workspaces/workspace-param.ts";
import { fleetName, fleetStatuses } from "./fleet.ts";

export const createFleet = defineOperation({
  id: "fleets.create",
  method: "POST",
  path: "/v1/workspaces/{workspace_id}/fleets",
  summary: "Install a fleet from a library entry",
  description:
    "Exactly one of platform_library_id or tenant_library_id. The fleet is named after the entry unless name is given. A required credential the workspace lacks answers 424 UZ-BUNDLE-003 with missing_credentials (and missing_secrets, the same list). The entry's triggers become the fleet's trigger schedules.",
  tags: ["Fleets"],
  scope: "fleet:write",
  credentials: tenantCredentials,
  successStatus: 201,
  errorStatuses: [409, 424],
  params: workspaceParam,
  body: {
    platform_library_id: uuidv7("platform_library_id").optional(),
    tenant_library_id: uuidv7("tenant_library_id").optional(),
    name: fleetName.optional(),
  },
  output: z
    .object({
      fleet_id: z.string(),
      workspace_id: z.string(),
      name: z.string(),
      status: z.enum(fleetStatuses),
      etag: z.string(),
      created_at: epochMs,
      updated_at: epochMs,
      /** The trigger schedules the install recorded. */
      schedule_ids: z.array(z.string()),
    })
    .meta({ id: "InstalledFleet" }),
});
