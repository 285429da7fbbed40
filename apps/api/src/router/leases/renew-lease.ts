import { renewLease as op } from "@fleet/contracts/leases/renew-lease";
import { renewLease as renew } from "../../services/leases/renew-lease.ts";
import { procedure } from "../../trpc.ts";

export const renewLease = procedure(op).mutation(({ ctx, input }) =>
  renew(ctx.services, ctx.principal.runnerId, input),
);
