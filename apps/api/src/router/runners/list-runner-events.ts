import { listRunnerEvents as op } from "@fleet/contracts";
import { listRunnerEvents as list } from "../../services/runners/runners.ts";
import { operatorProcedure } from "../../trpc.ts";

export const listRunnerEvents = operatorProcedure(op).query(({ ctx, input }) => list(ctx.services, input));
