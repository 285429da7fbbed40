import { z } from "zod";
import { defineOperation } from "../operation.ts";
import { assignedPolicyInput, runnerIdParam, runnerView } from "./runner.ts";

export const updateRunner = defineOperation({
  id: "runners.update",
  method: "PATCH",
  path: "/v1/fleets/runners/{id}",
  summary: "Re-assign a runner's policy, or cordon, drain, reactivate or revoke it",
  description:
    "The degraded verdict is recomputed in the same request against the host's last report and answered; the host learns the policy at its next heartbeat. Revoking needs runner:admin, is final, and refuses the token at once on every instance.",
  tags: ["Runners"],
  scope: "runner:write",
  credentials: ["operator"],
  successStatus: 200,
  errorStatuses: [409],
  params: runnerIdParam,
  body: {
    assigned_policy: assignedPolicyInput.optional(),
    status: z
      .enum(["active", "cordoned", "draining", "revoked"], {
        error: "status must be one of active, cordoned, draining, revoked",
      })
      .optional(),
  },
  output: runnerView,
});
