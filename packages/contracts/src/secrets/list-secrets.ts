import { z } from "zod";
import { defineOperation, tenantCredentials } from "../operation.ts";
import { workspaceParam } from "../workspaces/workspace-param.ts";
import { secretItem } from "./secret.ts";

export const listSecrets = defineOperation({
  id: "secrets.list",
  method: "GET",
  path: "/v1/workspaces/{workspace_id}/secrets",
  summary: "List a workspace's secrets",
  description: "Names, kinds and creation times, oldest first. Never a value.",
  tags: ["Secrets"],
  scope: "secret:read",
  credentials: tenantCredentials,
  successStatus: 200,
  params: workspaceParam,
  output: z.object({ secrets: z.array(secretItem) }).meta({ id: "SecretList" }),
});
