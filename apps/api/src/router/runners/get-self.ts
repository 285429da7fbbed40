import { getSelf as op } from "@fleet/contracts/runners/get-self";
import { getSelf as get } from "../../services/runners/get-self.ts";
import { procedure } from "../../trpc.ts";

export const getSelf = procedure(op).query(({ ctx }) => get(ctx.services, ctx.principal.runnerId));
