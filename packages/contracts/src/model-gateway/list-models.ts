import { z } from "zod";
import { leaseIdParam } from "../leases/lease.ts";
import { defineOperation } from "../operation.ts";

export const listModels = defineOperation({
  id: "modelGateway.listModels",
  method: "GET",
  path: "/v1/runners/me/leases/{lease_id}/model/models",
  summary: "The model a lease's calls go to (OpenAI list shape)",
  description:
    "For OpenAI client libraries that list models: one entry, the model the gateway resolves for this lease's fleet. Needs a lease the runner still holds (409 UZ-RUN-005 otherwise).",
  tags: ["Runner self"],
  scope: null,
  credentials: ["runner"],
  successStatus: 200,
  errorStatuses: [409],
  params: leaseIdParam,
  output: z
    .object({
      object: z.literal("list"),
      data: z.array(
        z.object({
          id: z.string(),
          object: z.literal("model"),
          created: z.number().int(),
          owned_by: z.string(),
        }),
      ),
    })
    .meta({ id: "ModelGatewayModels" }),
});
