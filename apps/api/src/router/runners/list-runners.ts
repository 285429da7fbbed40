import { listRunners as op } from "@fleet/contracts";
import { listRunners as list } from "../../services/runners/runners.ts";
import { operatorProcedure } from "../../trpc.ts";

export const listRunners = operatorProcedure(op).query(({ ctx, input }) => list(ctx.services, input));
