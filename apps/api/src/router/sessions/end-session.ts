import { endSession as op } from "@fleet/contracts/sessions/end-session";
import { endSession as end } from "../../services/sessions/end-session.ts";
import { actorOf, procedure } from "../../trpc.ts";

export const endSession = procedure(op).mutation(({ ctx }) => end(ctx.services, actorOf(ctx), ctx.principal));
