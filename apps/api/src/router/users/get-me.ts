import { getMe as op } from "@fleet/contracts/users/get-me";
import { getMe as me } from "../../services/users/get-me.ts";
import { procedure } from "../../trpc.ts";

export const getMe = procedure(op).query(({ ctx }) => me(ctx.principal));
