import { describe, expect, it } from "vitest";
import { chat, gatewayRun, useModelVendor } from "./model-gateway-fixtures.ts";

// A small workspace quota: the fixture's own calls on the workspace spend a few of it.
const vendor = useModelVendor({ FLEET_RATE_LIMIT_WORKSPACE: "20", FLEET_RATE_LIMIT_WINDOW_SECONDS: "600" });

describe("the model gateway and the tenant's rate limits", () => {
  it("counts each model call against its fleet's workspace quota: 429 UZ-API-001 once spent", async () => {
    const run = await gatewayRun();
    const before = vendor().calls.length;
    const statuses: number[] = [];
    let refused: Awaited<ReturnType<typeof chat>> | null = null;
    for (let i = 0; i < 25 && refused === null; i++) {
      const answer = await chat(run);
      statuses.push(answer.status);
      if (answer.status === 429) refused = answer;
    }
    expect(refused, statuses.join(",")).not.toBeNull();
    expect(refused!.body.error_code).toBe("UZ-API-001");
    expect(refused!.headers.get("retry-after")).not.toBeNull();
    // Every admitted call reached the vendor; the refused one did not.
    expect(vendor().calls.length - before).toBe(statuses.filter((s) => s === 200).length);
    expect(statuses.filter((s) => s === 200).length).toBeLessThan(20);
  });
});
