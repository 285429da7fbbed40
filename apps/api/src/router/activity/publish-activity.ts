import { publishActivity as op } from "@fleet/contracts/activity/publish-activity";
import { publishActivity as publish } from "../../services/activity/publish-activity.ts";
import { procedure } from "../../trpc.ts";

export const publishActivity = procedure(op).mutation(({ ctx, input }) =>
  publish(ctx.services, ctx.principal.runnerId, input),
);
