import { createLibrary as op } from "@fleet/contracts/fleet-libraries/create-library";
import { createLibrary as create } from "../../services/fleet-libraries/create-library.ts";
import { actorOf, procedure } from "../../trpc.ts";

export const createLibrary = procedure(op).mutation(({ ctx, input }) =>
  create(ctx.services, actorOf(ctx), ctx.principal.tenantId, input),
);
