import { getBilling as op } from "@fleet/contracts/billing/get-billing";
import { getBilling as read } from "../../services/billing/get-billing.ts";
import { procedure } from "../../trpc.ts";

export const getBilling = procedure(op).query(({ ctx }) => read(ctx.services, ctx.principal.tenantId));
