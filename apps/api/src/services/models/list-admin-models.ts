import { and, count, models, type SQL } from "@fleet/db";
import type { ServiceContext } from "../shared/context.ts";
import { toAdminModel } from "./admin-model-view.ts";
import { catalogueReader, providerIs } from "./catalogue.ts";

export async function listAdminModels(
  ctx: ServiceContext,
  input: { provider?: string; starting_after?: string; limit: number },
) {
  const filters: SQL[] = input.provider === undefined ? [] : [providerIs(input.provider)];
  const [page, [total]] = await Promise.all([
    catalogueReader(ctx, "admin-models", input),
    ctx.db
      .select({ n: count() })
      .from(models)
      .where(and(...filters)),
  ]);
  return {
    version: page.version,
    items: page.rows.map(toAdminModel),
    total: total?.n ?? 0,
    next_cursor: page.next_cursor,
  };
}
