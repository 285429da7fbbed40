import { listRunnerLeases as op } from "@fleet/contracts";
import { listRunnerLeases as list } from "../../services/runners/lease-history.ts";
import { operatorProcedure } from "../../trpc.ts";

export const listRunnerLeases = operatorProcedure(op).query(({ ctx, input }) => list(ctx.services, input));
