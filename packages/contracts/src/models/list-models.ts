import { z } from "zod";
import { defineOperation, tenantCredentials } from "../operation.ts";
import { catalogueModel, catalogueQuery } from "./model.ts";

export const listModels = defineOperation({
  id: "models.list",
  method: "GET",
  path: "/v1/models",
  summary: "Read the model catalogue",
  description:
    "Oldest row first, cursor-paged; provider filters exactly. limit is accepted from 1 to 100, but a page holds at most 50 rows. ETag names the catalogue version; If-None-Match with the current tag answers 304.",
  tags: ["Models"],
  scope: null,
  credentials: tenantCredentials,
  successStatus: 200,
  errorStatuses: [304],
  query: catalogueQuery,
  requestHeaders: { if_none_match: z.string().max(1024).optional() },
  headers: { "cache-control": "private, no-cache", vary: "Authorization" },
  output: z
    .object({
      version: z.number().int(),
      models: z.array(catalogueModel),
      total: z.null(),
      next_cursor: z.string().nullable(),
    })
    .meta({ id: "ModelCatalogue" }),
});
