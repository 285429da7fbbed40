import { deleteRunner as op } from "@fleet/contracts/runners/delete-runner";
import { deleteRunner as remove } from "../../services/runners/runners.ts";
import { procedure } from "../../trpc.ts";

export const deleteRunner = procedure(op).mutation(({ ctx, input }) => remove(ctx.services, input.id));
