import { z } from "zod";
import { epochMs } from "../common.ts";
import { defineOperation, tenantCredentials } from "../operation.ts";
import { workspaceParam } from "../workspaces/workspace-param.ts";

export const listCredentials = defineOperation({
  id: "secrets.listCredentials",
  method: "GET",
  path: "/v1/workspaces/{workspace_id}/credentials",
  summary: "List a workspace's credentials (deprecated)",
  description: "Renamed to …/secrets; kept read-only for older clients.",
  tags: ["Secrets"],
  scope: "secret:read",
  credentials: tenantCredentials,
  successStatus: 200,
  deprecated: true,
  params: workspaceParam,
  output: z
    .object({ credentials: z.array(z.object({ name: z.string(), created_at: epochMs })) })
    .meta({ id: "CredentialList" }),
});
