import { and, asc, type Database, eq, models, type Tx } from "@fleet/db";

/** What a report or a usage call says the run used. */
export interface Meters {
  provider?: string | undefined;
  model?: string | undefined;
  input_tokens?: number | undefined;
  output_tokens?: number | undefined;
  cached_tokens?: number | undefined;
  cost_nanos?: number | undefined;
}

export interface Priced {
  costNanos: number;
  source: "catalogue" | "reported";
  /** The catalogue row's prices the cost was computed from; null when the runner's cost was taken. */
  prices: Prices | null;
}

/** A catalogue row's prices, in nanos per million tokens. */
export interface Prices {
  input: number;
  cachedInput: number;
  output: number;
}

const MTOK = 1_000_000n;
const MAX = BigInt(Number.MAX_SAFE_INTEGER);

/**
 * Prices usage (docs/decisions/billing.md, "Billing and budgets"). When the runner names a model the catalogue
 * prices and reports token meters, the cost is the catalogue row's price now: uncached input, cached input
 * and output tokens at their prices per million, rounded up to a whole nano. Otherwise it is the runner's
 * own cost_nanos (0 when it sent none): a self-hosted model, or a runner that prices for itself.
 */
export async function priceUsage(db: Database | Tx, meters: Meters): Promise<Priced> {
  const metered =
    meters.input_tokens !== undefined ||
    meters.output_tokens !== undefined ||
    meters.cached_tokens !== undefined;
  const reported: Priced = { costNanos: meters.cost_nanos ?? 0, source: "reported", prices: null };
  if (meters.model === undefined || !metered) return reported;
  const where =
    meters.provider === undefined
      ? eq(models.modelId, meters.model)
      : and(eq(models.modelId, meters.model), eq(models.provider, meters.provider as never));
  const [row] = await db.select().from(models).where(where).orderBy(asc(models.provider)).limit(1);
  if (row === undefined) return reported;
  const prices = {
    input: row.inputNanosPerMtok,
    cachedInput: row.cachedInputNanosPerMtok,
    output: row.outputNanosPerMtok,
  };
  return { costNanos: costAt(prices, meters), source: "catalogue", prices };
}

/** Tokens at a catalogue row's prices per million: rounded up to a whole nano, capped at the safe integer. */
export function costAt(prices: Prices, tokens: Omit<Meters, "provider" | "model" | "cost_nanos">): number {
  const micro =
    BigInt(tokens.input_tokens ?? 0) * BigInt(prices.input) +
    BigInt(tokens.cached_tokens ?? 0) * BigInt(prices.cachedInput) +
    BigInt(tokens.output_tokens ?? 0) * BigInt(prices.output);
  const cost = (micro + MTOK - 1n) / MTOK;
  return Number(cost > MAX ? MAX : cost);
}
