import { denyDeviceSignIn as op } from "@fleet/contracts/sessions/deny-device-sign-in";
import { answerDeviceSignIn } from "../../services/sessions/device-sign-in.ts";
import { actorOf, procedure } from "../../trpc.ts";

export const denyDeviceSignIn = procedure(op).mutation(({ ctx, input }) =>
  answerDeviceSignIn(ctx.services, actorOf(ctx), ctx.principal, input.user_code, "denied"),
);
