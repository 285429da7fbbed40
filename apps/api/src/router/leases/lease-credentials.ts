import { leaseCredentials as op } from "@fleet/contracts/leases/lease-credentials";
import { leaseCredentials as deliver } from "../../services/leases/lease-credentials.ts";
import { actorOf, procedure } from "../../trpc.ts";

/** Secret values: never stored by a cache on the way. */
export const leaseCredentials = procedure(op).mutation(async ({ ctx, input }) => {
  const answer = await deliver(ctx.services, actorOf(ctx), ctx.principal.runnerId, input);
  ctx.response.headers = { ...ctx.response.headers, "cache-control": "no-store" };
  return answer;
});
