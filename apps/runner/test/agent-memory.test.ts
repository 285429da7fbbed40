import { describe, expect, it } from "vitest";
import { completions, messagesOf, toolCall, useAgentWorld } from "./agent-fixtures.ts";
import { installFleet, message, processed, startRunner } from "./harness.ts";

/**
 * memory_search on the fleet's memories, and the fleet's previous turns as the model's context; against a
 * real API whose provider is the fake model vendor.
 */
const world = useAgentWorld();

describe("the agent's memory and context", () => {
  it("finds what an earlier run remembered, and is given the earlier turns before the message", async () => {
    const fleet = await installFleet({ requires: ["tools: [memory_write, memory_search]"] });
    const runner = startRunner("memory-host", fleet, { FLEET_RUNNER_EXECUTOR: "agent" });
    world.vendor.script(
      toolCall("call_w", "memory_write", { key: "deploy-window", content: "Deploys happen on Tuesdays" }),
      { kind: "answer", text: "Noted: Tuesdays." },
    );
    const first = await message(fleet, "Remember that we deploy on Tuesdays.");
    expect(await processed(fleet, first)).toMatchObject({ status: "processed" });

    const from = world.vendor.calls.length;
    world.vendor.script(toolCall("call_s", "memory_search", { query: "deploys" }), {
      kind: "answer",
      text: "On Tuesdays.",
    });
    const second = await message(fleet, "When do we deploy?");
    expect(await processed(fleet, second)).toMatchObject({
      status: "processed",
      response_text: "On Tuesdays.",
    });

    const calls = completions(world.vendor, from);
    expect(calls).toHaveLength(2);
    const opening = messagesOf(calls[0]!).filter((item) => item.role !== "system");
    expect(opening).toEqual([
      expect.objectContaining({ role: "user", content: "Remember that we deploy on Tuesdays." }),
      expect.objectContaining({ role: "assistant", content: "Noted: Tuesdays." }),
      expect.objectContaining({ role: "user", content: "When do we deploy?" }),
    ]);
    const found = messagesOf(calls[1]!).find((item) => item.role === "tool");
    expect(found).toMatchObject({ tool_call_id: "call_s" });
    expect(String(found!.content)).toContain("Deploys happen on Tuesdays");
    runner.child.kill("SIGTERM");
    expect(await runner.exited).toBe(0);
  }, 60_000);
});
