import { problemSchema } from "@fleet/contracts";
import type { ProblemView } from "@fleet/ui";

/**
 * Carries a failed link sign-in to the sign-in page. A short-lived httpOnly cookie rather than query
 * parameters, so nobody can craft a sign-in URL that shows a message of their choosing.
 */
export const SIGN_IN_PROBLEM_COOKIE = "fleet_sign_in_problem";
export const signInProblemCookieOptions = {
  httpOnly: true,
  sameSite: "lax",
  path: "/sign-in",
  maxAge: 60,
} as const;

const viewSchema = problemSchema
  .pick({ title: true, detail: true, error_code: true, request_id: true, docs_uri: true })
  .partial()
  .required({ title: true, detail: true });

export function encodeProblem(problem: ProblemView): string {
  return Buffer.from(JSON.stringify(problem)).toString("base64url");
}

export function decodeProblem(value: string | undefined): ProblemView | null {
  if (value === undefined) return null;
  try {
    const parsed = viewSchema.safeParse(JSON.parse(Buffer.from(value, "base64url").toString("utf8")));
    return parsed.success ? (parsed.data as ProblemView) : null;
  } catch {
    return null;
  }
}
