import { deleteMemory as op } from "@fleet/contracts/memories/delete-memory";
import { deleteMemory as remove } from "../../services/memories/delete-memory.ts";
import { procedure } from "../../trpc.ts";

export const deleteMemory = procedure(op).mutation(({ ctx, input }) =>
  remove(ctx.services, ctx.principal.runnerId, input),
);
