import { z } from "zod";
import { defineOperation, tenantCredentials } from "../operation.ts";
import { workspaceParam } from "../workspaces/workspace-param.ts";
import { secretName } from "./secret.ts";

export const deleteSecret = defineOperation({
  id: "secrets.delete",
  method: "DELETE",
  path: "/v1/workspaces/{workspace_id}/secrets/{secret_name}",
  summary: "Delete a secret",
  description: "404 UZ-VAULT-003 when the workspace holds no such name.",
  tags: ["Secrets"],
  scope: "secret:write",
  credentials: tenantCredentials,
  successStatus: 204,
  params: { ...workspaceParam, secret_name: secretName },
  output: z.void(),
});
