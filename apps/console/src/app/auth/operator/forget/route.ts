import type { NextRequest } from "next/server";
import {
  OPERATOR_COOKIE,
  OPERATOR_PROBLEM_COOKIE,
  operatorPageOf,
  operatorReturnPath,
} from "../../../../lib/operator.ts";
import { redirectTo, sameOrigin } from "../../../../lib/redirect.ts";

/**
 * Forgets the operator token in this browser. The token itself stays valid until it expires; this only
 * stops the console from using it here.
 */
export async function POST(request: NextRequest) {
  if (!sameOrigin(request.headers)) return new Response("Cross-site form refused.", { status: 403 });
  // The page the form was on (Runners or Models); a form without one goes to Runners, as before.
  const back = operatorReturnPath((await request.formData().catch(() => null))?.get("return_to"));
  const response = redirectTo(back);
  response.cookies.delete({ name: OPERATOR_COOKIE, path: "/" });
  response.cookies.delete({ name: OPERATOR_PROBLEM_COOKIE, path: operatorPageOf(back) });
  return response;
}
