import { z } from "zod";
import { cursorParam, page, queryInt } from "../common.ts";
import { defineOperation, tenantCredentials } from "../operation.ts";
import { apiKeyItem, apiKeySorts } from "./api-key.ts";

export const listApiKeys = defineOperation({
  id: "apiKeys.list",
  method: "GET",
  path: "/v1/api-keys",
  summary: "List tenant API keys",
  description:
    "Cursor-paged: follow next_cursor until it is null. A cursor is bound to the sort it was issued for. page and page_size are refused.",
  tags: ["API keys"],
  scope: "apikey:read",
  credentials: tenantCredentials,
  successStatus: 200,
  query: {
    starting_after: cursorParam.optional(),
    limit: queryInt("limit", 1, 100).default(50),
    sort: z
      .enum(apiKeySorts, { error: `sort must be one of ${apiKeySorts.join(", ")}` })
      .default("-created_at"),
  },
  output: page(apiKeyItem).meta({ id: "ApiKeyPage" }),
});
