import { getRunner as op } from "@fleet/contracts/runners/get-runner";
import { getRunner as get } from "../../services/runners/get-runner.ts";
import { procedure } from "../../trpc.ts";

export const getRunner = procedure(op).query(({ ctx, input }) => get(ctx.services, input.id));
