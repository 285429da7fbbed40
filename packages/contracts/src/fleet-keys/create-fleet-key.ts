import { z } from "zod";
import { displayName, epochMs, uuidv7 } from "../common.ts";
import { defineOperation, tenantCredentials } from "../operation.ts";
import { fleetKeyItem } from "./fleet-key.ts";

export const createFleetKey = defineOperation({
  id: "fleetKeys.create",
  method: "POST",
  path: "/v1/workspaces/{workspace_id}/fleet-keys",
  summary: "Mint a fleet key",
  description:
    "Creates a key with the agt_a prefix bound to one fleet of the workspace, for an outside system (a CI job, a webhook sender, an agent framework) that acts as that fleet and nothing more: it may send the fleet messages, read its events and live tail, and request its integration grants, with the fleet scopes its creator holds. Everything else answers it 403 UZ-AUTH-022, and another fleet 404. The raw key is in this response only; the service stores its SHA-256 hash. Minted by an API key, it takes that key's expiry and quota. It counts against the tenant's cap on live keys (409 UZ-APIKEY-008).",
  tags: ["Fleet keys"],
  scope: "fleetkey:write",
  credentials: tenantCredentials,
  successStatus: 201,
  errorStatuses: [409],
  headers: { "cache-control": "no-store" },
  params: { workspace_id: uuidv7("workspace_id") },
  body: { fleet_id: uuidv7("fleet_id"), key_name: displayName("key_name", 128) },
  output: fleetKeyItem
    .omit({ last_used_at: true })
    .extend({ key: z.string(), workspace_id: z.string(), created_at: epochMs })
    .meta({ id: "MintedFleetKey" }),
});
