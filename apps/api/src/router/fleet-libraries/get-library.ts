import { getLibrary as op } from "@fleet/contracts/fleet-libraries/get-library";
import { getLibrary as get } from "../../services/fleet-libraries/get-library.ts";
import { procedure } from "../../trpc.ts";

export const getLibrary = procedure(op).query(({ ctx, input }) =>
  get(ctx.services, ctx.principal.tenantId, input),
);
