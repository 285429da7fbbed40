import { type AdminModel, Problem } from "@fleet/contracts";
import type { ModelRow } from "./catalogue.ts";

export function toAdminModel(row: ModelRow): AdminModel {
  return {
    uid: row.uid,
    provider: row.provider,
    model_id: row.modelId,
    context_cap_tokens: row.contextCapTokens,
    input_nanos_per_mtok: row.inputNanosPerMtok,
    cached_input_nanos_per_mtok: row.cachedInputNanosPerMtok,
    output_nanos_per_mtok: row.outputNanosPerMtok,
    created_at: row.createdAt,
    updated_at: row.updatedAt,
  };
}

export function notFound(uid: string): Problem {
  return new Problem("UZ-PROVIDER-006", { detail: `No catalogue row has uid ${uid}.` });
}
