import { z } from "zod";
import { leaseIdParam } from "../leases/lease.ts";
import { defineOperation } from "../operation.ts";
import { memoryKey } from "./write-memory.ts";

export const deleteMemory = defineOperation({
  id: "memories.delete",
  method: "DELETE",
  path: "/v1/runners/me/leases/{lease_id}/memories/{key}",
  summary: "Forget one of the leased fleet's memories",
  description: "Idempotent. Fenced by the fencing_token query parameter.",
  tags: ["Runner self"],
  scope: null,
  credentials: ["runner"],
  successStatus: 204,
  errorStatuses: [409],
  params: { ...leaseIdParam, key: memoryKey },
  query: {
    fencing_token: z.preprocess(
      (value) => (typeof value === "string" && /^\d+$/.test(value) ? Number(value) : value),
      z.number({ error: "fencing_token must be an integer" }).int().min(0),
    ),
  },
  output: z.void(),
});
