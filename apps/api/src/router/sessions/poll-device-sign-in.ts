import { pollDeviceSignIn as op } from "@fleet/contracts/sessions/poll-device-sign-in";
import { pollDeviceSignIn as poll } from "../../services/sessions/poll-device-sign-in.ts";
import { procedure, requestOf } from "../../trpc.ts";

export const pollDeviceSignIn = procedure(op).mutation(({ ctx, input }) =>
  poll(ctx.services, requestOf(ctx), input.device_code),
);
