import { z } from "zod";
import { epochMs } from "../common.ts";
import { defineOperation, tenantCredentials } from "../operation.ts";
import { workspaceParam } from "../workspaces/workspace-param.ts";
import { connectorApiKeyBody, connectorState, providerParam } from "./connector.ts";

export const connectConnector = defineOperation({
  id: "connectors.connect",
  method: "POST",
  path: "/v1/workspaces/{workspace_id}/connectors/{provider}/connect",
  summary: "Start connecting a provider",
  description:
    "For a chat provider (no body): answers the vendor's authorize URL, carrying a signed single-use `state` bound to the workspace, the caller and the calling browser (the answer sets an HttpOnly cookie `fleet_connect_<provider>`, whose hash the state carries; only that browser, signed in to the console as the caller, completes the connect), good for 600 s. The person consents on the vendor's page, which sends the browser to the callback. A provider the deployment is not configured for is 400 UZ-CONN-001; an unknown one 404 UZ-CONN-004. For an API-key provider (`datadog`): body `{api_key}`; the key is checked with the vendor first: a key it refuses is 400 UZ-CONN-005 and nothing is stored; a vendor that does not answer in time (or answers 5xx) is 502 UZ-CONN-003. An accepted key is sealed in the vault (never answered again) and the connector's state is answered.",
  tags: ["Connectors"],
  scope: "connector:write",
  credentials: tenantCredentials,
  successStatus: 200,
  headers: { "cache-control": "no-store" },
  params: { ...workspaceParam, ...providerParam },
  body: connectorApiKeyBody,
  output: z.union([
    z
      .object({ authorize_url: z.string(), state: z.string(), expires_at: epochMs })
      .meta({ id: "ConnectorAuthorization" }),
    connectorState,
  ]),
});
