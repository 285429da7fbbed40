import { denyDeviceSignIn as op } from "@fleet/contracts/sessions/deny-device-sign-in";
import { denyDeviceSignIn as deny } from "../../services/sessions/deny-device-sign-in.ts";
import { actorOf, procedure } from "../../trpc.ts";

export const denyDeviceSignIn = procedure(op).mutation(({ ctx, input }) =>
  deny(ctx.services, actorOf(ctx), ctx.principal, input.user_code),
);
