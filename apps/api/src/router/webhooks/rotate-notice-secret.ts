import { rotateNoticeSecret as op } from "@fleet/contracts/webhooks/rotate-notice-secret";
import { rotateNoticeSecret as rotate } from "../../services/webhooks/rotate-notice-secret.ts";
import { actorOf, procedure } from "../../trpc.ts";

export const rotateNoticeSecret = procedure(op).mutation(({ ctx, input }) =>
  rotate(ctx.services, actorOf(ctx), ctx.principal.tenantId, input.workspace_id),
);
