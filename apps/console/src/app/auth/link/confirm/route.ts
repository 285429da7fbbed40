import type { NextRequest } from "next/server";
import { encodeProblem, SIGN_IN_PROBLEM_COOKIE, signInProblemCookieOptions } from "../../../../lib/flash.ts";
import { isSecureRequest, redirectTo } from "../../../../lib/redirect.ts";
import { exchangeLink, SESSION_COOKIE, sessionCookieOptions } from "../../../../lib/session.ts";

/**
 * Whether the form was posted from this console. A cross-site form could otherwise sign a visitor into the
 * poster's tenant (login CSRF).
 */
function sameOrigin(request: NextRequest): boolean {
  const site = request.headers.get("sec-fetch-site");
  if (site !== null) return site === "same-origin";
  const origin = request.headers.get("origin");
  return origin === null || new URL(origin).host === request.headers.get("host");
}

/**
 * Spends the one-time token server side when the person presses Continue, keeps the session token in an
 * httpOnly cookie and sends them on. A GET never spends a link, so mail scanners that open links cannot.
 */
export async function POST(request: NextRequest) {
  if (!sameOrigin(request)) return new Response("Cross-site sign-in refused.", { status: 403 });
  const form = await request.formData();
  const token = String(form.get("token") ?? "");
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
