import { reportUsage as op } from "@fleet/contracts/leases/report-usage";
import { reportUsage as usage } from "../../services/leases/report-usage.ts";
import { procedure } from "../../trpc.ts";

export const reportUsage = procedure(op).mutation(({ ctx, input }) =>
  usage(ctx.services, ctx.principal.runnerId, input),
);
