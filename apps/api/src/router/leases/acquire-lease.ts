import { acquireLease as op } from "@fleet/contracts/leases/acquire-lease";
import { acquireLease as acquire } from "../../services/leases/acquire-lease.ts";
import { procedure } from "../../trpc.ts";

export const acquireLease = procedure(op).mutation(({ ctx, input }) =>
  acquire(ctx.services, ctx.principal.runnerId, input.wait_ms, ctx.socket),
);
