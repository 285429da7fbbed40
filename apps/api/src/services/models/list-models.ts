import type { ServiceContext } from "../shared/context.ts";
import { catalogueReader, catalogueTag, type ModelRow, tagMatches } from "./catalogue.ts";

function toCatalogueModel(row: ModelRow) {
  return {
    id: row.modelId,
    provider: row.provider,
    context_cap_tokens: row.contextCapTokens,
    input_nanos_per_mtok: row.inputNanosPerMtok,
    cached_input_nanos_per_mtok: row.cachedInputNanosPerMtok,
    output_nanos_per_mtok: row.outputNanosPerMtok,
  };
}

/**
 * The tenant-facing catalogue page with its entity tag, and whether If-None-Match already names that tag
 * (the caller's copy is current).
 */
export async function listModels(
  ctx: ServiceContext,
  input: { provider?: string; starting_after?: string; limit: number; if_none_match?: string },
) {
  const page = await catalogueReader(ctx, "models", input);
  const tag = catalogueTag(page.version);
  return {
    tag,
    current: tagMatches(input.if_none_match, tag),
    page: {
      version: page.version,
      models: page.rows.map(toCatalogueModel),
      total: null,
      next_cursor: page.next_cursor,
    },
  };
}
