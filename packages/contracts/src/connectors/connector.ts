import { z } from "zod";
import { epochMs } from "../common.ts";

/** How a provider is connected: `chat` through the vendor's OAuth consent, `api_key` with a key it probes. */
export const connectorArchetypes = ["chat", "api_key"] as const;

/** A workspace connector's state (the spec's connector status). */
export const connectorStatuses = ["connected", "reconnect_required", "not_connected"] as const;

/** How long a connect's signed `state` may be spent. */
export const OAUTH_STATE_TTL_MS = 600_000;

/**
 * An API-key connector's key (`POST …/connect` of `datadog`): printable ASCII without spaces, as vendors'
 * keys are; it travels in a request header, so a line break or control character could never be sent.
 */
export const connectorApiKeyBody = {
  api_key: z
    .string({ error: "api_key must be a string" })
    .regex(/^[\x21-\x7e]{8,256}$/, { error: "api_key must be 8-256 printable characters without spaces" })
    .optional(),
};

/** The `{provider}` path parameter: a name in the catalog (`slack`, `datadog`); any other is 404 UZ-CONN-004. */
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
    /** The deployment holds the provider's client configuration (an OAuth app's id and secrets; always for an API-key provider). */
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
