import { deleteRoute as op } from "@fleet/contracts/connectors/delete-route";
import { deleteRoute as remove } from "../../services/connectors/delete-route.ts";
import { actorOf, procedure } from "../../trpc.ts";

export const deleteRoute = procedure(op).mutation(({ ctx, input }) =>
  remove(ctx.services, actorOf(ctx), {
    tenantId: ctx.principal.tenantId,
    workspaceId: input.workspace_id,
    provider: input.provider,
    channelId: input.channel_id,
  }),
);
