import type { ProblemView } from "@fleet/ui";
import { TRPCClientError } from "@trpc/client";
import { REQUEST_TIMEOUT_MS, unansweredOf } from "./api-fetch.ts";
import type { ApiError } from "./trpc.ts";

/**
 * The problem document a failed procedure carries, or a console-made one when the API never answered.
 * A parser's or a browser's own words ("Unexpected token 'I'…", "Failed to fetch") never reach the page.
 */
export function problemOf(error: ApiError): ProblemView {
  const problem = error.data?.problem;
  if (problem) return problem;
  const unanswered = unansweredOf(error);
  if (unanswered?.kind === "timeout")
    return {
      title: "The API is not answering",
      detail: `The Fleet Control Plane API did not answer within ${REQUEST_TIMEOUT_MS / 1000} seconds. It may be overloaded or paused; try again in a moment.`,
    };
  if (unanswered?.kind === "not_json")
    return {
      title: "The API could not be reached",
      // The console's own proxy answers so when the API is down (it cannot tell a stopped API from a broken
      // one): say what is known, not that something else answered.
      detail: `The answer (HTTP ${unanswered.httpStatus}) came from the console's server or a proxy, not from the API: the API may be stopped or restarting. Try again in a moment.`,
    };
  return {
    title: "The API could not be reached",
    detail:
      "The console got no answer from the Fleet Control Plane API. Check your connection and try again.",
  };
}

/** The request may have been done although its answer was lost: a send must not be assumed to have failed. */
export function answerLost(error: ApiError): boolean {
  return error.data?.problem === undefined;
}

/** HTTP status of the refusal; undefined when the API never answered. */
export function statusOf(error: ApiError): number | undefined {
  return error.data?.httpStatus;
}

/**
 * A refusal (4xx) answers the same on retry; an outage, or no answer at all, may not. Takes any error, as a
 * query's state holds it: one that is no tRPC client error counts as no answer.
 */
export function retryable(error: unknown): boolean {
  const status = error instanceof TRPCClientError ? statusOf(error as ApiError) : undefined;
  return (status ?? 500) >= 500;
}
