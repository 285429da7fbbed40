import { setRoute as op } from "@fleet/contracts/connectors/set-route";
import { setRoute as set } from "../../services/connectors/set-route.ts";
import { actorOf, procedure } from "../../trpc.ts";

export const setRoute = procedure(op).mutation(({ ctx, input }) =>
  set(ctx.services, actorOf(ctx), {
    tenantId: ctx.principal.tenantId,
    workspaceId: input.workspace_id,
    provider: input.provider,
    channelId: input.channel_id,
    fleetId: input.fleet_id,
  }),
);
