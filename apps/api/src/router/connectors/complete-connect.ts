import { completeConnect as op } from "@fleet/contracts/connectors/complete-connect";
import { SESSION_COOKIE } from "../../auth/authorize.ts";
import { bindingCookieName, clearedBindingCookie } from "../../services/connectors/browser-binding.ts";
import { completeConnect as complete } from "../../services/connectors/complete-connect.ts";
import { principalLabel } from "../../services/shared/audit.ts";
import { procedure } from "../../trpc.ts";

/**
 * No bearer: the signed single-use state, the browser binding's cookie and the console session of the
 * person who started the connect are the authentication. Sends the browser on (303).
 */
export const completeConnect = procedure(op).query(async ({ ctx, input }) => {
  const { provider, ...query } = input;
  // Who is signed in to the console in this browser; an absent, expired or revoked session is nobody.
  const signedIn = async () => {
    const token = ctx.cookie(SESSION_COOKIE);
    if (token === null) return null;
    try {
      return principalLabel(await ctx.authenticator.authenticate(token, ctx.services.now()));
    } catch {
      return null;
    }
  };
  const browser = { nonce: ctx.cookie(bindingCookieName(provider)), signedIn };
  const result = await complete(ctx.services, ctx.requestId, provider, query, browser);
  ctx.response.headers = { ...ctx.response.headers, location: result.location, "cache-control": "no-store" };
  ctx.response.cookies = [clearedBindingCookie(ctx.services.config, provider)];
  return result;
});
