import { listLibraries as op } from "@fleet/contracts/fleet-libraries/list-libraries";
import { listLibraries as list } from "../../services/fleet-libraries/list-libraries.ts";
import { procedure } from "../../trpc.ts";

export const listLibraries = procedure(op).query(({ ctx, input }) =>
  list(ctx.services, ctx.principal.tenantId, input),
);
