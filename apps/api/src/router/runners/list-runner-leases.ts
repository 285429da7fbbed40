import { listRunnerLeases as op } from "@fleet/contracts/runners/list-runner-leases";
import { listRunnerLeases as list } from "../../services/runners/list-runner-leases.ts";
import { procedure } from "../../trpc.ts";

export const listRunnerLeases = procedure(op).query(({ ctx, input }) => list(ctx.services, input));
