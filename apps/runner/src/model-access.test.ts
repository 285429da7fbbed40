import { describe, expect, it, vi } from "vitest";
import { LeaseLostError } from "./executor.ts";
import { fencedModel } from "./model-access.ts";

const problem = (status: number, code: string) =>
  new Response(JSON.stringify({ error_code: code, detail: "no" }), { status });

function access(answer: Response, held = new AbortController().signal) {
  const lease = { leaseId: "l1", held, lost: vi.fn(), overBudget: vi.fn() };
  const model = fencedModel({ baseUrl: "http://api/model", fetch: async () => answer }, lease);
  return { model, lease };
}

describe("the model gateway as an executor reaches it", () => {
  it("drops the lease and throws LeaseLostError when the gateway says another holder has it", async () => {
    const { model, lease } = access(problem(409, "UZ-RUN-005"));
    await expect(model.fetch("http://api/model/chat/completions")).rejects.toBeInstanceOf(LeaseLostError);
    expect(lease.lost).toHaveBeenCalledOnce();
  });

  it("stops the run for its budget and hands the refusal back to the model client", async () => {
    const { model, lease } = access(problem(409, "UZ-BUDGET-001"));
    expect((await model.fetch("http://api/model/chat/completions")).status).toBe(409);
    expect(lease.overBudget).toHaveBeenCalledOnce();
    expect(lease.lost).not.toHaveBeenCalled();
  });

  it("passes other answers on, and calls nothing once the lease is gone", async () => {
    const { model } = access(new Response("{}", { status: 200 }));
    expect((await model.fetch("http://api/model/models")).status).toBe(200);
    const gone = new AbortController();
    gone.abort();
    const after = access(new Response("{}"), gone.signal);
    await expect(after.model.fetch("http://api/model/models")).rejects.toBeInstanceOf(LeaseLostError);
  });
});
