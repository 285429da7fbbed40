import { reportLease as op } from "@fleet/contracts/leases/report-lease";
import { reportLease as report } from "../../services/leases/report-lease.ts";
import { procedure } from "../../trpc.ts";

export const reportLease = procedure(op).mutation(({ ctx, input }) =>
  report(ctx.services, ctx.principal.runnerId, input),
);
