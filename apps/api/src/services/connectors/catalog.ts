import { Problem } from "@fleet/contracts";
import type { Config } from "../../env.ts";

/** A provider the deployment offers. */
export interface ProviderEntry {
  id: string;
  display_name: string;
  archetype: "chat" | "api_key";
  /** Whether the deployment holds what connecting it needs. */
  configured: (config: Config) => boolean;
}

/**
 * The catalog. A chat provider, Slack, through an OAuth app the operator registers (`FLEET_SLACK_*`), and
 * an API-key provider, Datadog, connected with a key the tenant pastes and the vendor's key check accepts
 * (nothing for the operator to register: always configured). Adding a provider is an entry here and a
 * client beside `slack-client.ts` / `datadog-client.ts`.
 */
export const PROVIDERS: readonly ProviderEntry[] = [
  {
    id: "slack",
    display_name: "Slack",
    archetype: "chat",
    configured: ({ connectors: { slack } }) =>
      slack.clientId !== null && slack.clientSecret !== null && slack.signingSecret !== null,
  },
  { id: "datadog", display_name: "Datadog", archetype: "api_key", configured: () => true },
];

/** The catalog entry named `provider`, or 404 UZ-CONN-004. */
export function requireProvider(provider: string): ProviderEntry {
  const entry = PROVIDERS.find((candidate) => candidate.id === provider);
  if (entry === undefined)
    throw new Problem("UZ-CONN-004", { detail: "No such provider on this deployment." });
  return entry;
}

/**
 * The catalog entry named `provider` for an operation only a chat provider has (the OAuth callback, the
 * events ingress, channel routes): 404 UZ-CONN-004 when unknown, 400 UZ-CONN-001 for an API-key provider.
 */
export function requireChatProvider(provider: string): ProviderEntry {
  const entry = requireProvider(provider);
  if (entry.archetype !== "chat")
    throw new Problem("UZ-CONN-001", {
      detail: `${entry.display_name} is an API-key connector: it has no consent callback, events or channel routes.`,
    });
  return entry;
}

/** The catalog's items, each `connected` when its provider is in `connected`. */
export function catalogItems(config: Config, connected: ReadonlySet<string>) {
  return PROVIDERS.map((entry) => ({
    id: entry.id,
    display_name: entry.display_name,
    archetype: entry.archetype,
    configured: entry.configured(config),
    connected: connected.has(entry.id),
  }));
}
