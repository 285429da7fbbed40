import { getLibrary as op } from "@fleet/contracts";
import { getLibraryEntry } from "../../services/fleet-libraries/entries.ts";
import { tenantProcedure } from "../../trpc.ts";

export const getLibrary = tenantProcedure(op).query(({ ctx, input }) =>
  getLibraryEntry(ctx.services, ctx.principal.tenantId, input),
);
