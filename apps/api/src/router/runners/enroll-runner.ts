import { enrollRunner as op } from "@fleet/contracts";
import { enrollRunner as enroll } from "../../services/runners/runners.ts";
import { operatorProcedure } from "../../trpc.ts";

export const enrollRunner = operatorProcedure(op).mutation(({ ctx, input }) => enroll(ctx.services, input));
