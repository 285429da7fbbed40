import { listLibraries as op } from "@fleet/contracts/fleet-libraries/list-libraries";
import { listLibraryEntries } from "../../services/fleet-libraries/list-libraries.ts";
import { procedure } from "../../trpc.ts";

export const listLibraries = procedure(op).query(({ ctx, input }) =>
  listLibraryEntries(ctx.services, ctx.principal.tenantId, input),
);
