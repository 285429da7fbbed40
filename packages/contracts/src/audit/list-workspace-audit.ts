import { defineOperation, tenantCredentials } from "../operation.ts";
import { workspaceParam } from "../workspaces/workspace-param.ts";
import { auditDescription, auditPage, auditQuery } from "./audit-event.ts";

export const listWorkspaceAudit = defineOperation({
  id: "audit.listWorkspace",
  method: "GET",
  path: "/v1/workspaces/{workspace_id}/audit",
  summary: "List a workspace's audit log",
  description: `The audited acts in this workspace (approval answers, secret changes). ${auditDescription}`,
  tags: ["Audit"],
  scope: "workspace:admin",
  credentials: tenantCredentials,
  successStatus: 200,
  params: workspaceParam,
  query: auditQuery,
  output: auditPage,
});
