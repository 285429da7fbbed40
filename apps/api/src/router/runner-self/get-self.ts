import { getSelf as op } from "@fleet/contracts";
import { getSelf as get } from "../../services/runners/self.ts";
import { runnerProcedure } from "../../trpc.ts";

export const getSelf = runnerProcedure(op).query(({ ctx }) => get(ctx.services, ctx.principal.runnerId));
