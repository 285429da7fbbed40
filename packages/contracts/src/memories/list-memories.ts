import { z } from "zod";
import { cursorParam, epochMs, page, queryInt } from "../common.ts";
import { fleetParams } from "../fleets/fleet.ts";
import { defineOperation, tenantCredentials } from "../operation.ts";

export const memoryItem = z
  .object({
    key: z.string(),
    content: z.string(),
    category: z.string(),
    created_at: epochMs,
    updated_at: epochMs,
  })
  .meta({ id: "Memory" });

export const listMemories = defineOperation({
  id: "memories.list",
  method: "GET",
  path: "/v1/workspaces/{workspace_id}/fleets/{fleet_id}/memories",
  summary: "List or search a fleet's memories",
  description:
    "Newest first by creation. category filters exactly; query is a full-text search over key and content (all words must match). Every form pages by cursor; a cursor is bound to its filters.",
  tags: ["Memories"],
  scope: "fleet:read",
  credentials: tenantCredentials,
  successStatus: 200,
  params: fleetParams,
  query: {
    starting_after: cursorParam.optional(),
    limit: queryInt("limit", 1, 100).default(50),
    category: z.string().min(1).max(200, { error: "category must be at most 200 characters" }).optional(),
    query: z.string().min(1).max(500, { error: "query must be at most 500 characters" }).optional(),
  },
  output: page(memoryItem).meta({ id: "MemoryPage" }),
});
