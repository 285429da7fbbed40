import { replacePlatformKey as op } from "@fleet/contracts/providers/replace-platform-key";
import { replacePlatformKey as replace } from "../../services/providers/replace-platform-key.ts";
import { actorOf, procedure } from "../../trpc.ts";

export const replacePlatformKey = procedure(op).mutation(({ ctx, input }) =>
  replace(ctx.services, actorOf(ctx), input),
);
