import { listRunnerEvents as op } from "@fleet/contracts/runners/list-runner-events";
import { listRunnerEvents as list } from "../../services/runners/list-runner-events.ts";
import { procedure } from "../../trpc.ts";

export const listRunnerEvents = procedure(op).query(({ ctx, input }) => list(ctx.services, input));
