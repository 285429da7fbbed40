import { exchangeSignInLink as op } from "@fleet/contracts/sessions/exchange-sign-in-link";
import { exchangeSignInLink as exchange } from "../../services/sessions/exchange-sign-in-link.ts";
import { procedure, requestOf } from "../../trpc.ts";

export const exchangeSignInLink = procedure(op).mutation(({ ctx, input }) =>
  exchange(ctx.services, requestOf(ctx), input.token),
);
