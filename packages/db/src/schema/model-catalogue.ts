import { sql } from "drizzle-orm";
import { bigint, check, pgTable, text } from "drizzle-orm/pg-core";

/**
 * The catalogue's version: one row, bumped in the same transaction as every change to `models`, so a
 * reader that takes the version before the rows never labels older rows with a newer version. The
 * `ETag` of `GET /v1/models` is derived from it. No row yet means version 0 (an empty catalogue).
 */
export const modelCatalogue = pgTable(
  "model_catalogue",
  {
    /** Always `catalogue`: the table holds one row. */
    id: text("id").primaryKey(),
    version: bigint("version", { mode: "number" }).notNull(),
    updatedAt: bigint("updated_at", { mode: "number" }).notNull(),
  },
  (t) => [check("model_catalogue_one_row", sql`${t.id} = 'catalogue'`)],
);
