import { hasScope } from "@fleet/contracts";
import { updateRunner as op } from "@fleet/contracts/runners/update-runner";
import { updateRunner as update } from "../../services/runners/update-runner.ts";
import { actorOf, procedure } from "../../trpc.ts";

export const updateRunner = procedure(op).mutation(({ ctx, input }) =>
  update(ctx.services, actorOf(ctx), input, hasScope(ctx.principal.scopes, "runner:admin")),
);
