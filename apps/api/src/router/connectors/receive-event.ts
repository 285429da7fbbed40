import { receiveEvent as op } from "@fleet/contracts/connectors/receive-event";
import { receiveEvent as receive } from "../../services/connectors/receive-event.ts";
import { procedure } from "../../trpc.ts";

/** No bearer credential: the vendor's signature over the raw body, checked in the service, authenticates. */
export const receiveEvent = procedure(op).mutation(({ ctx, input }) => {
  const { provider, x_slack_request_timestamp, x_slack_signature, ...body } = input;
  return receive(ctx.services, ctx.requestId, provider, body, {
    timestamp: x_slack_request_timestamp,
    signature: x_slack_signature,
    rawBody: ctx.rawBody,
  });
});
