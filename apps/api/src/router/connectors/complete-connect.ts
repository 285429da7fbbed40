import { completeConnect as op } from "@fleet/contracts/connectors/complete-connect";
import { completeConnect as complete } from "../../services/connectors/complete-connect.ts";
import { procedure } from "../../trpc.ts";

/** No bearer credential: the signed single-use state is the authentication. Sends the browser on (303). */
export const completeConnect = procedure(op).query(async ({ ctx, input }) => {
  const { provider, ...query } = input;
  const result = await complete(ctx.services, ctx.requestId, provider, query);
  ctx.response.headers = { ...ctx.response.headers, location: result.location, "cache-control": "no-store" };
  return result;
});
