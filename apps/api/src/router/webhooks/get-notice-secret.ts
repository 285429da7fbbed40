import { getNoticeSecret as op } from "@fleet/contracts/webhooks/get-notice-secret";
import { getNoticeSecret as get } from "../../services/webhooks/get-notice-secret.ts";
import { procedure } from "../../trpc.ts";

export const getNoticeSecret = procedure(op).query(({ ctx, input }) =>
  get(ctx.services, ctx.principal.tenantId, input.workspace_id),
);
