import { getRunner as op } from "@fleet/contracts";
import { getRunner as get } from "../../services/runners/runners.ts";
import { operatorProcedure } from "../../trpc.ts";

export const getRunner = operatorProcedure(op).query(({ ctx, input }) => get(ctx.services, input.id));
