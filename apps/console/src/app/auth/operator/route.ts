import type { NextRequest } from "next/server";
import { encodeProblem } from "../../../lib/flash.ts";
import {
  OPERATOR_COOKIE,
  OPERATOR_PROBLEM_COOKIE,
  operatorCookieOptions,
  operatorCookieSeconds,
  operatorPageOf,
  operatorProblemCookieOptions,
  operatorReturnPath,
  verifyOperator,
} from "../../../lib/operator.ts";
import { isSecureRequest, redirectTo, sameOrigin } from "../../../lib/redirect.ts";

/**
 * Takes a pasted operator token (a plain form post, so no page script handles it after the paste), has
 * the API check it, and keeps it in the httpOnly `fleet_operator` cookie. A refusal goes back to the
 * page it came from (Runners or Models) as a short-lived flash, never in the URL.
 */
export async function POST(request: NextRequest) {
  if (!sameOrigin(request.headers)) return new Response("Cross-site form refused.", { status: 403 });
  const form = await request.formData();
  const token = String(form.get("token") ?? "").trim();
  const back = operatorReturnPath(form.get("return_to"));
  const secure = isSecureRequest(request.headers);
  const page = operatorPageOf(back);
  const result = await verifyOperator(token, page);
  const response = redirectTo(back);
  if (!result.ok) {
    response.cookies.set(OPERATOR_PROBLEM_COOKIE, encodeProblem(result.problem), {
      ...operatorProblemCookieOptions(page),
      secure,
    });
    return response;
  }
  response.cookies.set(OPERATOR_COOKIE, token, {
    ...operatorCookieOptions(secure),
    maxAge: operatorCookieSeconds(result.value, Date.now()),
  });
  response.cookies.delete({ name: OPERATOR_PROBLEM_COOKIE, path: page });
  return response;
}
