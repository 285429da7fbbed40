import { enrollRunner as op } from "@fleet/contracts/runners/enroll-runner";
import { enrollRunner as enroll } from "../../services/runners/enroll-runner.ts";
import { actorOf, procedure } from "../../trpc.ts";

export const enrollRunner = procedure(op).mutation(({ ctx, input }) =>
  enroll(ctx.services, actorOf(ctx), input),
);
