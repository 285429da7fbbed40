import { createPlatformLibrary as op } from "@fleet/contracts/fleet-libraries/create-platform-library";
import { createPlatformLibrary as create } from "../../services/fleet-libraries/create-platform-library.ts";
import { actorOf, procedure } from "../../trpc.ts";

export const createPlatformLibrary = procedure(op).mutation(({ ctx, input }) =>
  create(ctx.services, actorOf(ctx), input),
);
