import { listFleetKeys as op } from "@fleet/contracts/fleet-keys/list-fleet-keys";
import { listFleetKeys as list } from "../../services/fleet-keys/list-fleet-keys.ts";
import { procedure } from "../../trpc.ts";

export const listFleetKeys = procedure(op).query(({ ctx, input }) =>
  list(ctx.services, ctx.principal.tenantId, input),
);
