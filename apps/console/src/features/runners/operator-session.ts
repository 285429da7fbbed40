import { cookies } from "next/headers";
import { decodeProblem } from "../../lib/flash.ts";
import { OPERATOR_COOKIE, OPERATOR_PROBLEM_COOKIE, operatorClaims } from "../../lib/operator.ts";
import type { OperatorSession } from "./operator-access.tsx";

/**
 * What an operator page's server component hands its view: the claims of the token in the cookie (never
 * the token) and the problem of a paste the API refused.
 */
export async function readOperatorSession(): Promise<{
  operator: OperatorSession | null;
  accessProblem: ReturnType<typeof decodeProblem>;
}> {
  const jar = await cookies();
  const token = jar.get(OPERATOR_COOKIE)?.value;
  return {
    operator: token ? operatorClaims(token) : null,
    accessProblem: decodeProblem(jar.get(OPERATOR_PROBLEM_COOKIE)?.value),
  };
}
