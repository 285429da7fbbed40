import { z } from "zod";
import { displayName } from "../common.ts";
import { defineOperation, tenantCredentials } from "../operation.ts";

export const createWorkspace = defineOperation({
  id: "workspaces.create",
  method: "POST",
  path: "/v1/workspaces",
  summary: "Create a workspace",
  description: "The name is trimmed, 1 to 128 characters, and unique in the tenant (409 UZ-WORKSPACE-001).",
  tags: ["Workspaces"],
  scope: "workspace:admin",
  credentials: tenantCredentials,
  successStatus: 201,
  errorStatuses: [409],
  body: { name: displayName("name", 128) },
  output: z
    .object({ workspace_id: z.string(), name: z.string(), tenant_id: z.string(), request_id: z.string() })
    .meta({ id: "CreatedWorkspace" }),
});
