import { markGateRan as op } from "@fleet/contracts/approvals/mark-gate-ran";
import { markGateRan as mark } from "../../services/approvals/mark-gate-ran.ts";
import { procedure } from "../../trpc.ts";

export const markGateRan = procedure(op).mutation(({ ctx, input }) =>
  mark(ctx.services, ctx.principal.runnerId, input),
);
