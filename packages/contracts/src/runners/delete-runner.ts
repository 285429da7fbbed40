import { z } from "zod";
import { defineOperation } from "../operation.ts";
import { runnerIdParam } from "./runner.ts";

export const deleteRunner = defineOperation({
  id: "runners.delete",
  method: "DELETE",
  path: "/v1/fleets/runners/{id}",
  summary: "Delete a revoked runner",
  description: "Only a revoked runner can be deleted (409 UZ-RUN-015 otherwise); its history goes with it.",
  tags: ["Runners"],
  scope: "runner:admin",
  credentials: ["operator"],
  successStatus: 204,
  errorStatuses: [409],
  params: runnerIdParam,
  output: z.void(),
});
