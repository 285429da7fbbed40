import type { NextRequest } from "next/server";
import { encodeProblem, SIGN_IN_PROBLEM_COOKIE, signInProblemCookieOptions } from "../../../../lib/flash.ts";
import { LANDING_PATH } from "../../../../lib/landing.ts";
import { OPERATOR_COOKIE, operatorCookieOptions } from "../../../../lib/operator.ts";
import { isSecureRequest, redirectTo, sameOrigin } from "../../../../lib/redirect.ts";
import { RETURN_TO_COOKIE, returnPath } from "../../../../lib/return-to.ts";
import { exchangeLink, SESSION_COOKIE, sessionCookieOptions } from "../../../../lib/session.ts";

/**
 * Spends the one-time token server side when the person presses Continue, keeps the session token in an
 * httpOnly cookie and sends them on: to the page they were going to before the sign-in, else the landing.
 * A GET never spends a link, so mail scanners that open links cannot.
 * In dev mode an owner's sign-in also brings an operator token: it goes into the operator cookie, as a
 * pasted one would, and lives as long as the session.
 */
export async function POST(request: NextRequest) {
  if (!sameOrigin(request.headers)) return new Response("Cross-site sign-in refused.", { status: 403 });
  const form = await request.formData();
  const token = String(form.get("token") ?? "");
  const result = await exchangeLink(token, request.headers.get("x-forwarded-for"));
  if (!result.ok) {
    const response = redirectTo("/sign-in");
    response.cookies.set(SIGN_IN_PROBLEM_COOKIE, encodeProblem(result.problem), {
      ...signInProblemCookieOptions,
      secure: isSecureRequest(request.headers),
    });
    return response;
  }
  // The page the person was sent here from, if any: a link to one gate still reaches that gate.
  const response = redirectTo(returnPath(request.cookies.get(RETURN_TO_COOKIE)?.value) ?? LANDING_PATH);
  response.cookies.delete({ name: RETURN_TO_COOKIE, path: "/" });
  const secure = isSecureRequest(request.headers);
  const expires = new Date(result.value.expires_at);
  response.cookies.set(SESSION_COOKIE, result.value.session_token, {
    ...sessionCookieOptions(secure),
    expires,
  });
  if (result.value.operator_token !== undefined) {
    response.cookies.set(OPERATOR_COOKIE, result.value.operator_token, {
      ...operatorCookieOptions(secure),
      expires,
    });
  }
  response.cookies.delete({ name: SIGN_IN_PROBLEM_COOKIE, path: "/sign-in" });
  return response;
}
