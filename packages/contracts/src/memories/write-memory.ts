import { z } from "zod";
import { fencingToken, leaseIdParam } from "../leases/lease.ts";
import { defineOperation } from "../operation.ts";
import { memoryItem } from "./list-memories.ts";

export const memoryKey = z
  .string()
  .min(1, { error: "key must not be empty" })
  .max(200, { error: "key must be at most 200 characters" });

export const writeMemory = defineOperation({
  id: "memories.write",
  method: "PUT",
  path: "/v1/runners/me/leases/{lease_id}/memories/{key}",
  summary: "Store one of the leased fleet's memories",
  description: "Creates or replaces the memory under key. Fenced: a superseded holder gets 409 UZ-RUN-005.",
  tags: ["Runner self"],
  scope: null,
  credentials: ["runner"],
  successStatus: 200,
  errorStatuses: [409],
  bodyLimit: 128 * 1024,
  params: { ...leaseIdParam, key: memoryKey },
  body: {
    fencing_token: fencingToken,
    category: z.string().min(1).max(200).default("general"),
    content: z
      .string()
      .min(1, { error: "content must not be empty" })
      .max(64 * 1024, { error: "content must be at most 65,536 characters" }),
  },
  output: memoryItem,
});
