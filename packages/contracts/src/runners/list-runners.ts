import { cursorParam, page, queryInt } from "../common.ts";
import { defineOperation } from "../operation.ts";
import { runnerView } from "./runner.ts";

export const listRunners = defineOperation({
  id: "runners.list",
  method: "GET",
  path: "/v1/fleets/runners",
  summary: "List runners",
  description: "Newest first only; page, page_size and sort are refused.",
  tags: ["Runners"],
  scope: "runner:read",
  credentials: ["operator"],
  successStatus: 200,
  query: { starting_after: cursorParam.optional(), limit: queryInt("limit", 1, 100).default(50) },
  output: page(runnerView).meta({ id: "RunnerPage" }),
});
