import { createPlatformLibrary as op } from "@fleet/contracts";
import { onboardLibraryEntry } from "../../services/fleet-libraries/onboard.ts";
import { operatorProcedure } from "../../trpc.ts";

export const createPlatformLibrary = operatorProcedure(op).mutation(({ ctx, input }) =>
  onboardLibraryEntry(ctx.services, { visibility: "platform" }, input),
);
