import type { ServiceContext } from "../shared/context.ts";
import type { ProviderEntry } from "./catalog.ts";
import { probeDatadogKey } from "./datadog-client.ts";

/** Asks the API-key provider's vendor whether the key is good (the only API-key provider: Datadog). */
export async function probeKey(ctx: ServiceContext, entry: ProviderEntry, apiKey: string): Promise<void> {
  if (entry.id === "datadog") return probeDatadogKey(ctx.config, apiKey);
  throw new Error(`no key probe for ${entry.id}`);
}
