import { exchangeSignInLink as op } from "@fleet/contracts";
import { exchangeSignInLink as exchange } from "../../services/identity/sessions.ts";
import { publicProcedure } from "../../trpc.ts";

export const exchangeSignInLink = publicProcedure(op).mutation(({ ctx, input }) =>
  exchange(ctx.services, input.token),
);
