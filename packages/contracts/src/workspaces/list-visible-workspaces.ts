import { defineOperation, tenantCredentials } from "../operation.ts";
import { workspaceListQuery, workspacePage } from "./list-workspaces.ts";

/**
 * The workspaces the caller may see, for every member: the console's workspace picker and a program that
 * needs a workspace id. The admin's list (`GET /v1/tenants/me/workspaces`) keeps the spec's scope.
 */
export const listVisibleWorkspaces = defineOperation({
  id: "workspaces.listVisible",
  method: "GET",
  path: "/v1/workspaces",
  summary: "List the workspaces you can see",
  description:
    "The workspaces of the caller's tenant, newest first, cursor-paged; name filters by exact name. Any member's session or API key may list them, whatever its scopes: what a workspace holds stays guarded by its own scopes. Creating one (POST /v1/workspaces) needs workspace:admin. The query and the answer are those of GET /v1/tenants/me/workspaces, the administrator's list.",
  tags: ["Workspaces"],
  scope: null,
  credentials: tenantCredentials,
  successStatus: 200,
  query: workspaceListQuery,
  output: workspacePage,
});
