import { waitGate as op } from "@fleet/contracts/approvals/wait-gate";
import { waitForGate } from "../../services/approvals/wait-gate.ts";
import { procedure } from "../../trpc.ts";

export const waitGate = procedure(op).query(({ ctx, input }) =>
  waitForGate(ctx.services, ctx.principal.runnerId, input, ctx.socket),
);
