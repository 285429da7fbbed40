import { getMe as op } from "@fleet/contracts";
import { describeCaller } from "../../services/identity/get-me.ts";
import { tenantProcedure } from "../../trpc.ts";

export const getMe = tenantProcedure(op).query(({ ctx }) => describeCaller(ctx.principal));
