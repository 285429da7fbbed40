import { replacePlatformKey as op } from "@fleet/contracts";
import { replacePlatformKey as replace } from "../../services/providers/platform-key.ts";
import { operatorProcedure } from "../../trpc.ts";

export const replacePlatformKey = operatorProcedure(op).mutation(({ ctx, input }) =>
  replace(ctx.services, input),
);
