import { replaceSecret as op } from "@fleet/contracts/secrets/replace-secret";
import { replaceSecret as replace } from "../../services/secrets/replace-secret.ts";
import { actorOf, procedure } from "../../trpc.ts";

export const replaceSecret = procedure(op).mutation(({ ctx, input }) =>
  replace(ctx.services, actorOf(ctx), ctx.principal.tenantId, input),
);
