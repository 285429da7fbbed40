import type { NextRequest } from "next/server";
import { encodeProblem, SIGN_IN_PROBLEM_COOKIE, signInProblemCookieOptions } from "../../../lib/flash.ts";
import { isSecureRequest, redirectTo } from "../../../lib/redirect.ts";
import { exchangeLink, SESSION_COOKIE, sessionCookieOptions } from "../../../lib/session.ts";

/**
 * The target of `fleetctl login-link`: spends the one-time token server side, keeps the session token in
 * an httpOnly cookie and sends the person on. The token never reaches page scripts.
 */
export async function GET(request: NextRequest) {
  const token = request.nextUrl.searchParams.get("token") ?? "";
  const result = await exchangeLink(token);
  if (!result.ok) {
    const response = redirectTo("/sign-in");
    response.cookies.set(SIGN_IN_PROBLEM_COOKIE, encodeProblem(result.problem), {
      ...signInProblemCookieOptions,
      secure: isSecureRequest(request.headers),
    });
    return response;
  }
  const response = redirectTo("/api-keys");
  response.cookies.set(SESSION_COOKIE, result.value.session_token, {
    ...sessionCookieOptions(isSecureRequest(request.headers)),
    expires: new Date(result.value.expires_at),
  });
  response.cookies.delete({ name: SIGN_IN_PROBLEM_COOKIE, path: "/sign-in" });
  return response;
}
