import { z } from "zod";
import { epochMs } from "../common.ts";

/** How a provider is connected: `chat` through the vendor's OAuth consent, `api_key` with a key it probes. */
export const connectorArchetypes = ["chat", "api_key"] as const;

/** A workspace connector's state (the spec's connector status). */
export const connectorStatuses = ["connected", "reconnect_required", "not_connected"] as const;

/** How long a connect's signed `state` may be spent. */
export const OAUTH_STATE_TTL_MS = 600_000;

/** The `{provider}` path parameter: a name in the catalog (`slack`); any other is 404 UZ-CONN-004. */
export const providerParam = {
  provider: z
    .string({ error: "provider must be a string" })
    .min(1, { error: "provider must not be empty" })
    .max(64, { error: "provider is at most 64 characters" }),
};

/** One provider of the deployment's catalog, with whether it is set up and connected. */
export const connectorCatalogItem = z
  .object({
    id: z.string(),
    display_name: z.string(),
    archetype: z.enum(connectorArchetypes),
    /** The deployment holds the provider's client configuration (an OAuth app's id and secrets). */
    configured: z.boolean(),
    /** Connected in at least one of the caller's workspaces (the catalog), or in this workspace (its list). */
    connected: z.boolean(),
  })
  .meta({ id: "ConnectorCatalogItem" });

/** The vendor's team a connector is installed in. */
export const connectorTeam = z.object({ id: z.string(), name: z.string() }).meta({ id: "ConnectorTeam" });

/** A workspace connector's status: never a token. */
export const connectorState = z
  .object({
    provider: z.string(),
    status: z.enum(connectorStatuses),
    team: connectorTeam.nullable(),
    connected_at: epochMs.nullable(),
  })
  .meta({ id: "ConnectorState" });
