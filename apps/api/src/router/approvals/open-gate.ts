import { openGate as op } from "@fleet/contracts/approvals/open-gate";
import { openGate as open } from "../../services/approvals/open-gate.ts";
import { procedure } from "../../trpc.ts";

export const openGate = procedure(op).mutation(async ({ ctx, input }) => {
  const { gate, created } = await open(ctx.services, ctx.principal.runnerId, input);
  // The same action_id again finds the gate already open: 200, not a second 201.
  if (!created) ctx.response.status = 200;
  return gate;
});
