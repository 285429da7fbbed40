import { approveDeviceSignIn as op } from "@fleet/contracts/sessions/approve-device-sign-in";
import { approveDeviceSignIn as approve } from "../../services/sessions/approve-device-sign-in.ts";
import { actorOf, procedure } from "../../trpc.ts";

export const approveDeviceSignIn = procedure(op).mutation(({ ctx, input }) =>
  approve(ctx.services, actorOf(ctx), ctx.principal, input.user_code),
);
