import { getMe as op } from "@fleet/contracts/users/get-me";
import { callerView } from "../../services/users/get-me.ts";
import { procedure } from "../../trpc.ts";

export const getMe = procedure(op).query(({ ctx }) => callerView(ctx.principal));
