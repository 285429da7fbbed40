import { modelProviders } from "@fleet/contracts";
import { withQuery } from "../../lib/urls.ts";

export interface ModelsPosition {
  /** The provider filter (exact), or undefined for every provider. */
  provider?: string | undefined;
  startingAfter?: string | undefined;
}

/** The Models page's URL for a filter and page; the plain URL stays plain. */
export function modelsHref({ provider, startingAfter }: ModelsPosition): string {
  return withQuery("/models", { provider, starting_after: startingAfter });
}

/** A provider's name as people read it. */
export function providerLabel(provider: string): string {
  switch (provider) {
    case "anthropic":
      return "Anthropic";
    case "openai":
      return "OpenAI";
    case "openai_compatible":
      return "OpenAI-compatible";
    case "platform":
      return "Platform default";
    default:
      return provider;
  }
}

/** The providers the filter offers: the catalogue's. */
export const filterProviders = modelProviders;
