import { startDeviceSignIn as op } from "@fleet/contracts/sessions/start-device-sign-in";
import { startDeviceSignIn as start } from "../../services/sessions/start-device-sign-in.ts";
import { procedure } from "../../trpc.ts";

export const startDeviceSignIn = procedure(op).mutation(({ ctx, input }) => start(ctx.services, input));
