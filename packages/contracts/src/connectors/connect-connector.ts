import { z } from "zod";
import { epochMs } from "../common.ts";
import { defineOperation, tenantCredentials } from "../operation.ts";
import { workspaceParam } from "../workspaces/workspace-param.ts";
import { providerParam } from "./connector.ts";

export const connectConnector = defineOperation({
  id: "connectors.connect",
  method: "POST",
  path: "/v1/workspaces/{workspace_id}/connectors/{provider}/connect",
  summary: "Start connecting a provider",
  description:
    "For a chat provider: answers the vendor's authorize URL, carrying a signed single-use `state` bound to the workspace and the caller, good for 600 s. The person consents on the vendor's page, which sends the browser to the callback. A provider the deployment is not configured for is 400 UZ-CONN-001; an unknown one 404 UZ-CONN-004.",
  tags: ["Connectors"],
  scope: "connector:write",
  credentials: tenantCredentials,
  successStatus: 200,
  headers: { "cache-control": "no-store" },
  params: { ...workspaceParam, ...providerParam },
  output: z
    .object({ authorize_url: z.string(), state: z.string(), expires_at: epochMs })
    .meta({ id: "ConnectorAuthorization" }),
});
