import { z } from "zod";
import { defineOperation, tenantCredentials } from "../operation.ts";
import { workspaceParam } from "../workspaces/workspace-param.ts";
import { secretData, secretKinds, secretName } from "./secret.ts";

export const createSecret = defineOperation({
  id: "secrets.create",
  method: "POST",
  path: "/v1/workspaces/{workspace_id}/secrets",
  summary: "Create a secret",
  description:
    "Stores the data encrypted (AES-256-GCM, a key per secret wrapped by the master key, bound to the workspace and name). 409 UZ-VAULT-005 when the name exists.",
  tags: ["Secrets"],
  scope: "secret:write",
  credentials: tenantCredentials,
  successStatus: 201,
  errorStatuses: [409, 503],
  params: workspaceParam,
  body: {
    name: secretName,
    data: secretData,
    kind: z.enum(secretKinds, { error: `kind must be one of ${secretKinds.join(", ")}` }).default("generic"),
  },
  output: z
    .object({ name: z.string(), created_at: z.number().int(), kind: z.enum(secretKinds) })
    .meta({ id: "CreatedSecret" }),
});
