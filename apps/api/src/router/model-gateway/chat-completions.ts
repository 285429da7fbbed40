import { chatCompletions as op } from "@fleet/contracts/model-gateway/chat-completions";
import { chatCompletion } from "../../services/model-gateway/chat-completions.ts";
import { procedure } from "../../trpc.ts";

export const chatCompletions = procedure(op).relay(({ ctx, input }) =>
  chatCompletion(ctx.services, ctx.principal.runnerId, input, (tenantId, workspaceId) =>
    ctx.limits?.admitWorkspace(tenantId, workspaceId),
  ),
);
