import { getDeviceSignIn as op } from "@fleet/contracts/sessions/get-device-sign-in";
import { getDeviceSignIn as get } from "../../services/sessions/get-device-sign-in.ts";
import { procedure } from "../../trpc.ts";

export const getDeviceSignIn = procedure(op).mutation(({ ctx, input }) =>
  get(ctx.services, ctx.principal, input.user_code),
);
