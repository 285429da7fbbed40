import { releaseLease as op } from "@fleet/contracts/leases/release-lease";
import { releaseLease as release } from "../../services/leases/release-lease.ts";
import { procedure } from "../../trpc.ts";

export const releaseLease = procedure(op).mutation(({ ctx, input }) =>
  release(ctx.services, ctx.principal.runnerId, input),
);
