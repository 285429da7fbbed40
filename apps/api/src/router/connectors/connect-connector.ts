import { connectConnector as op } from "@fleet/contracts/connectors/connect-connector";
import { bindingCookie, newBrowserBinding } from "../../services/connectors/browser-binding.ts";
import { connectConnector as connect } from "../../services/connectors/connect-connector.ts";
import { actorOf, procedure } from "../../trpc.ts";

/** A consent connect binds itself to the calling browser: its nonce goes back in a cookie, its hash in the state. */
export const connectConnector = procedure(op).mutation(async ({ ctx, input }) => {
  const binding = newBrowserBinding();
  const answer = await connect(
    ctx.services,
    actorOf(ctx),
    ctx.principal.tenantId,
    input.workspace_id,
    input.provider,
    input.api_key,
    binding.hash,
  );
  if ("authorize_url" in answer)
    ctx.response.cookies = [bindingCookie(ctx.services.config, input.provider, binding.nonce)];
  return answer;
});
