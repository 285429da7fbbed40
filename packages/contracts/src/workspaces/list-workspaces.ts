import { z } from "zod";
import { cursorParam, epochMs, queryInt } from "../common.ts";
import { defineOperation, tenantCredentials } from "../operation.ts";

export const workspaceItem = z
  .object({ id: z.string(), name: z.string(), created_at: epochMs })
  .meta({ id: "Workspace" });

/** The query both workspace lists take: an exact name, a cursor, a page size. */
export const workspaceListQuery = {
  name: z.string().max(128).optional(),
  starting_after: cursorParam.optional(),
  limit: queryInt("limit", 1, 100).default(50),
};

export const workspacePage = z
  .object({
    items: z.array(workspaceItem),
    tenant_id: z.string(),
    total: z.number().int(),
    next_cursor: z.string().nullable(),
  })
  .meta({ id: "WorkspacePage" });

export const listWorkspaces = defineOperation({
  id: "workspaces.list",
  method: "GET",
  path: "/v1/tenants/me/workspaces",
  summary: "List the tenant's workspaces",
  description:
    "Newest first, cursor-paged; name filters by exact name. Needs workspace:admin, the scope that creates and lists workspaces.",
  tags: ["Workspaces"],
  scope: "workspace:admin",
  credentials: tenantCredentials,
  successStatus: 200,
  query: workspaceListQuery,
  output: workspacePage,
});
