import { defineOperation } from "../operation.ts";
import { runnerIdParam, runnerView } from "./runner.ts";

export const getRunner = defineOperation({
  id: "runners.get",
  method: "GET",
  path: "/v1/fleets/runners/{id}",
  summary: "Read a runner",
  description:
    "Derived liveness, lease counts, what the host can enforce (achievable) and whether it is degraded. Never the token hash. Unknown id: 404 UZ-RUN-014.",
  tags: ["Runners"],
  scope: "runner:read",
  credentials: ["operator"],
  successStatus: 200,
  params: runnerIdParam,
  output: runnerView,
});
