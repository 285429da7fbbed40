import type { NextRequest } from "next/server";
import { OPERATOR_COOKIE, OPERATOR_PAGES, OPERATOR_PROBLEM_COOKIE } from "../../../../lib/operator.ts";
import { redirectTo, sameOrigin } from "../../../../lib/redirect.ts";

/**
 * Forgets the operator token in this browser. The token itself stays valid until it expires; this only
 * stops the console from using it here.
 */
export async function POST(request: NextRequest) {
  if (!sameOrigin(request.headers)) return new Response("Cross-site form refused.", { status: 403 });
  const response = redirectTo(OPERATOR_PAGES);
  response.cookies.delete({ name: OPERATOR_COOKIE, path: "/" });
  response.cookies.delete({ name: OPERATOR_PROBLEM_COOKIE, path: OPERATOR_PAGES });
  return response;
}
