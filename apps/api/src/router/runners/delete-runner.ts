import { deleteRunner as op } from "@fleet/contracts/runners/delete-runner";
import { deleteRunner as remove } from "../../services/runners/delete-runner.ts";
import { actorOf, procedure } from "../../trpc.ts";

export const deleteRunner = procedure(op).mutation(({ ctx, input }) =>
  remove(ctx.services, actorOf(ctx), input.id),
);
