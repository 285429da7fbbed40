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
 * The catalog. One chat provider today: Slack, through an OAuth app the operator registers
 * (`FLEET_SLACK_*`). Adding a provider is an entry here and a client beside `slack-client.ts`.
 */
export const PROVIDERS: readonly ProviderEntry[] = [
  {
    id: "slack",
    display_name: "Slack",
    archetype: "chat",
    configured: ({ connectors: { slack } }) =>
      slack.clientId !== null && slack.clientSecret !== null && slack.signingSecret !== null,
  },
];

/** The catalog entry named `provider`, or 404 UZ-CONN-004. */
export function requireProvider(provider: string): ProviderEntry {
  const entry = PROVIDERS.find((candidate) => candidate.id === provider);
  if (entry === undefined)
    throw new Problem("UZ-CONN-004", { detail: "No such provider on this deployment." });
  return entry;
}
