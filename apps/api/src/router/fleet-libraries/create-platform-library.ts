import { createPlatformLibrary as op } from "@fleet/contracts/fleet-libraries/create-platform-library";
import { onboardLibraryEntry } from "../../services/fleet-libraries/onboard.ts";
import { procedure } from "../../trpc.ts";

export const createPlatformLibrary = procedure(op).mutation(({ ctx, input }) =>
  onboardLibraryEntry(ctx.services, { visibility: "platform" }, input),
);
