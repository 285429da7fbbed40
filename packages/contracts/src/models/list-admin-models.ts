import { z } from "zod";
import { defineOperation } from "../operation.ts";
import { adminModel, catalogueQuery } from "./model.ts";

export const listAdminModels = defineOperation({
  id: "models.adminList",
  method: "GET",
  path: "/v1/admin/models",
  summary: "List catalogue rows (operator)",
  description:
    "Oldest row first, cursor-paged; provider filters exactly; a page holds at most 50 rows. Rows carry their uid.",
  tags: ["Models"],
  scope: "model:read",
  credentials: ["operator"],
  successStatus: 200,
  query: catalogueQuery,
  output: z
    .object({
      version: z.number().int(),
      items: z.array(adminModel),
      total: z.number().int(),
      next_cursor: z.string().nullable(),
    })
    .meta({ id: "AdminModelPage" }),
});
