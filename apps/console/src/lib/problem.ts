import type { ProblemView } from "@fleet/ui";
import type { ApiError } from "./trpc.ts";

/** The problem document a failed procedure carries, or a console-made one when the API never answered. */
export function problemOf(error: ApiError): ProblemView {
  const problem = error.data?.problem;
  if (problem) return problem;
  return {
    title: "The API could not be reached",
    detail: `The console got no answer from the Fleet Control Plane API (${error.message}). Check your connection and try again.`,
  };
}

/** HTTP status of the refusal; undefined when the API never answered. */
export function statusOf(error: ApiError): number | undefined {
  return error.data?.httpStatus;
}

/** A refusal (4xx) answers the same on retry; an outage, or no answer at all, may not. */
export function retryable(error: ApiError): boolean {
  return (statusOf(error) ?? 500) >= 500;
}
