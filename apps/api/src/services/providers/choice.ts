import { type ModelProvider, namedProviders, Problem, type TenantProviderChoice } from "@fleet/contracts";
import { and, type Database, eq, models, type Tx } from "@fleet/db";
import type { Resolve } from "../../runtime/public-address.ts";
import { verifyBaseUrl } from "./base-url.ts";

/** Refuses a provider the deployment does not know (UZ-PROVIDER-001). */
export function knownProvider<const T extends readonly string[]>(provider: string, known: T): T[number] {
  if (!known.includes(provider)) {
    throw new Problem("UZ-PROVIDER-001", {
      detail: `provider must be one of ${known.join(", ")}.`,
    });
  }
  return provider as T[number];
}

/** The catalogue row a default names by (provider, model): it must exist, so it is priced (UZ-PROVIDER-004). */
export async function pricedModel(
  db: Database | Tx,
  provider: ModelProvider,
  model: string,
): Promise<string> {
  const [row] = await db
    .select({ uid: models.uid })
    .from(models)
    .where(and(eq(models.provider, provider), eq(models.modelId, model)));
  if (row === undefined) throw unpriced(provider, model);
  return row.uid;
}

export function unpriced(provider: string, model: string): Problem {
  return new Problem("UZ-PROVIDER-004", {
    detail: `${model} is not a priced ${provider} model in the catalogue.`,
  });
}

/**
 * The base_url a provider takes: none for a named provider or the platform (they are reached at their own
 * endpoint), and for openai_compatible a required https URL whose host is public.
 */
export async function providerBaseUrl(
  provider: TenantProviderChoice,
  raw: string | undefined,
  resolve: Resolve,
): Promise<string | null> {
  if (provider !== "openai_compatible") {
    if (raw === undefined) return null;
    const named = (namedProviders as readonly string[]).includes(provider);
    throw new Problem("UZ-PROVIDER-005", {
      detail: named
        ? `base_url is not accepted for ${provider}, which is reached at its own endpoint.`
        : "base_url is not accepted with provider platform: the platform default's endpoint is used.",
    });
  }
  if (raw === undefined) {
    throw new Problem("UZ-PROVIDER-005", { detail: "openai_compatible needs an https base_url." });
  }
  return verifyBaseUrl(raw, resolve);
}
