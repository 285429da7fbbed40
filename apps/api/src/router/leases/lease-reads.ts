import {
  leaseContext as contextOp,
  searchLeaseMemories as searchOp,
} from "@fleet/contracts/leases/lease-reads";
import { leaseContext as context, searchLeaseMemories as search } from "../../services/leases/lease-reads.ts";
import { procedure } from "../../trpc.ts";

export const searchLeaseMemories = procedure(searchOp).query(({ ctx, input }) =>
  search(ctx.services, ctx.principal.runnerId, input),
);

export const leaseContext = procedure(contextOp).query(({ ctx, input }) =>
  context(ctx.services, ctx.principal.runnerId, input),
);
