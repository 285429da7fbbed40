import { z } from "zod";
import { cursorParam, queryInt } from "../common.ts";
import { defineOperation } from "../operation.ts";
import { leaseSummary, runnerIdParam } from "./runner.ts";

export const listRunnerLeases = defineOperation({
  id: "runners.listLeases",
  method: "GET",
  path: "/v1/fleets/runners/{id}/leases",
  summary: "List a runner's leases",
  description: "Newest first; limit defaults to 50 and is refused above 100. Never a request body.",
  tags: ["Runners"],
  scope: "runner:read",
  credentials: ["operator"],
  successStatus: 200,
  params: runnerIdParam,
  query: { starting_after: cursorParam.optional(), limit: queryInt("limit", 1, 100).default(50) },
  output: z
    .object({ items: z.array(leaseSummary), next_cursor: z.string().nullable() })
    .meta({ id: "LeasePage" }),
});
