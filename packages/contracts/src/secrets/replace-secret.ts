import { z } from "zod";
import { defineOperation, tenantCredentials } from "../operation.ts";
import { workspaceParam } from "../workspaces/workspace-param.ts";
import { secretData, secretName } from "./secret.ts";

export const replaceSecret = defineOperation({
  id: "secrets.replace",
  method: "PUT",
  path: "/v1/workspaces/{workspace_id}/secrets/{secret_name}",
  summary: "Replace a secret's data",
  description: "Replaces the stored body whole. 404 UZ-VAULT-003 when the workspace holds no such name.",
  tags: ["Secrets"],
  scope: "secret:write",
  credentials: tenantCredentials,
  successStatus: 200,
  errorStatuses: [503],
  params: { ...workspaceParam, secret_name: secretName },
  body: { data: secretData },
  output: z.object({ name: z.string() }).meta({ id: "SecretName" }),
});
