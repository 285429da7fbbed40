import { listLeaseGrants as op } from "@fleet/contracts/integration-grants/list-lease-grants";
import { listLeaseGrants as list } from "../../services/integration-grants/list-lease-grants.ts";
import { procedure } from "../../trpc.ts";

export const listLeaseGrants = procedure(op).query(({ ctx, input }) =>
  list(ctx.services, ctx.principal.runnerId, input.lease_id),
);
