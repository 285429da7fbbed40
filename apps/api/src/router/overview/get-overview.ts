import { hasScope } from "@fleet/contracts";
import { getOverview as op } from "@fleet/contracts/overview/get-overview";
import { getOverview as read } from "../../services/overview/get-overview.ts";
import { procedure } from "../../trpc.ts";

// The spend figure is billing's: shown only to a caller who may read billing, null for everyone else.
export const getOverview = procedure(op).query(({ ctx, input }) =>
  read(
    ctx.services,
    ctx.principal.tenantId,
    input.workspace_id,
    hasScope(ctx.principal.scopes, "billing:read"),
  ),
);
