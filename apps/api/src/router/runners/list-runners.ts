import { listRunners as op } from "@fleet/contracts/runners/list-runners";
import { listRunners as list } from "../../services/runners/list-runners.ts";
import { procedure } from "../../trpc.ts";

export const listRunners = procedure(op).query(({ ctx, input }) => list(ctx.services, input));
