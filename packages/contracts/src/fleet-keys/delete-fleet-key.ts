import { z } from "zod";
import { uuidv7 } from "../common.ts";
import { defineOperation, tenantCredentials } from "../operation.ts";

export const deleteFleetKey = defineOperation({
  id: "fleetKeys.delete",
  method: "DELETE",
  path: "/v1/workspaces/{workspace_id}/fleet-keys/{id}",
  summary: "Delete a fleet key",
  description:
    "Ends the key at once, on every instance (its open streams end too), and removes it. An unknown key, or one of another workspace, answers 404 UZ-FLEETKEY-001.",
  tags: ["Fleet keys"],
  scope: "fleetkey:write",
  credentials: tenantCredentials,
  successStatus: 204,
  params: { workspace_id: uuidv7("workspace_id"), id: uuidv7("id") },
  output: z.void(),
});
