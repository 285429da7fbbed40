import { writeMemory as op } from "@fleet/contracts/memories/write-memory";
import { writeMemory as write } from "../../services/memories/write-memory.ts";
import { procedure } from "../../trpc.ts";

export const writeMemory = procedure(op).mutation(({ ctx, input }) =>
  write(ctx.services, ctx.principal.runnerId, input),
);
