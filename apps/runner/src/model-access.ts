import { LeaseLostError, type ModelAccess } from "./executor.ts";

/** The problem code of a refusal's body, if it has one. */
async function errorCode(answer: Response): Promise<string | undefined> {
  try {
    const problem = (await answer.json()) as { error_code?: unknown };
    return typeof problem.error_code === "string" ? problem.error_code : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The gateway's access as the lease worker hands it to an executor: a call made after the lease was lost
 * throws `LeaseLostError`; a 409 saying the lease is gone (UZ-RUN-005, UZ-RUN-001) drops the lease and
 * throws it; a 409 saying the run is over its budget (UZ-BUDGET-001) stops the run, which is then reported
 * `budget_exceeded`, and the refusal goes back to the model client as it came.
 */
export function fencedModel(
  gateway: ModelAccess,
  lease: { leaseId: string; held: AbortSignal; lost: () => void; overBudget: (error: unknown) => void },
): ModelAccess {
  return {
    baseUrl: gateway.baseUrl,
    fetch: async (input, init) => {
      if (lease.held.aborted) throw new LeaseLostError(lease.leaseId);
      const answer = await gateway.fetch(input, init);
      if (answer.status !== 409) return answer;
      const code = await errorCode(answer.clone());
      if (code === "UZ-RUN-005" || code === "UZ-RUN-001") {
        lease.lost();
        throw new LeaseLostError(lease.leaseId);
      }
      if (code === "UZ-BUDGET-001") lease.overBudget(new Error("the model gateway refused: UZ-BUDGET-001"));
      return answer;
    },
  };
}
