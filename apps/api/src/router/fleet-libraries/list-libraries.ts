import { listLibraries as op } from "@fleet/contracts";
import { listLibraryEntries } from "../../services/fleet-libraries/list.ts";
import { tenantProcedure } from "../../trpc.ts";

export const listLibraries = tenantProcedure(op).query(({ ctx, input }) =>
  listLibraryEntries(ctx.services, ctx.principal.tenantId, input),
);
