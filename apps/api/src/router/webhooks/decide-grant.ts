import { decideGrant as op } from "@fleet/contracts/webhooks/decide-grant";
import { decideGrant as decide } from "../../services/webhooks/decide-grant.ts";
import { procedure } from "../../trpc.ts";

/** No bearer credential: the signature over the raw body, checked in the service, is the authentication. */
export const decideGrant = procedure(op).mutation(({ ctx, input }) => {
  const { x_signature_timestamp, x_signature, ...decision } = input;
  return decide(ctx.services, ctx.requestId, decision, {
    timestamp: x_signature_timestamp,
    signature: x_signature,
    rawBody: ctx.rawBody,
  });
});
