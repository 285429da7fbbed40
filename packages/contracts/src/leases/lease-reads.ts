import { z } from "zod";
import { epochMs, queryInt } from "../common.ts";
import { memoryItem } from "../memories/list-memories.ts";
import { fencingHeader } from "../model-gateway/chat-completions.ts";
import { defineOperation } from "../operation.ts";
import { leaseIdParam } from "./lease.ts";

/** The conversation a run is given: this many tokens at most, counted as 4 characters a token. */
export const CONTEXT_MAX_TOKENS = 8_000;
export const CONTEXT_CHARS_PER_TOKEN = 4;

export const searchLeaseMemories = defineOperation({
  id: "leases.searchMemories",
  method: "GET",
  path: "/v1/runners/me/leases/{lease_id}/memories",
  summary: "Search the leased fleet's memories",
  description:
    "The fleet's memories for its run: query is a full-text search over key and content (all words must match), category filters exactly; newest first, at most limit (1-20, default 5). Fenced by the Fleet-Fencing-Token header: a superseded holder gets 409 UZ-RUN-005. Values of the fleet's secrets are masked.",
  tags: ["Runner self"],
  scope: null,
  credentials: ["runner"],
  successStatus: 200,
  errorStatuses: [409],
  params: leaseIdParam,
  query: {
    query: z
      .string({ error: "query must be a string" })
      .min(1, { error: "query must not be empty" })
      .max(500, { error: "query must be at most 500 characters" })
      .optional(),
    category: z
      .string({ error: "category must be a string" })
      .min(1, { error: "category must not be empty" })
      .max(200, { error: "category must be at most 200 characters" })
      .optional(),
    limit: queryInt("limit", 1, 20).default(5),
  },
  requestHeaders: fencingHeader,
  output: z.object({ items: z.array(memoryItem) }).meta({ id: "LeaseMemories" }),
});

export const leaseContext = defineOperation({
  id: "leases.context",
  method: "GET",
  path: "/v1/runners/me/leases/{lease_id}/context",
  summary: "Read the leased fleet's recent conversation",
  description: `The fleet's previous events that were answered (processed), before the leased one: each request (the message) and answer, newest first, as many whole turns as fit in ${CONTEXT_MAX_TOKENS.toLocaleString("en")} tokens counted as ${CONTEXT_CHARS_PER_TOKEN} characters a token. Fenced by the Fleet-Fencing-Token header: a superseded holder gets 409 UZ-RUN-005. Values of the fleet's secrets are masked.`,
  tags: ["Runner self"],
  scope: null,
  credentials: ["runner"],
  successStatus: 200,
  errorStatuses: [409],
  params: leaseIdParam,
  requestHeaders: fencingHeader,
  output: z
    .object({
      turns: z.array(
        z.object({ event_id: z.string(), created_at: epochMs, request: z.string(), response: z.string() }),
      ),
      /** The turns' size in tokens as counted (characters / 4, rounded up), at most `max_tokens`. */
      tokens: z.number().int(),
      max_tokens: z.number().int(),
    })
    .meta({ id: "LeaseContext" }),
});
