import type { ActivityFrame } from "@fleet/contracts";
import { afterEach, describe, expect, it, vi } from "vitest";
import { fakeLease } from "../../../test/lease.ts";
import type { LeaseTools } from "../../executor.ts";
import { LeaseLostError } from "../../executor.ts";
import { OUTPUT_PIECE_CHARS, observed, outputPieces } from "./frames.ts";

function publishing(signal = new AbortController().signal) {
  const frames: ActivityFrame[] = [];
  const tools = {
    signal,
    publish: async (frame: ActivityFrame) => {
      frames.push(frame);
    },
  } as unknown as LeaseTools;
  return { tools, frames };
}

afterEach(() => {
  vi.useRealTimers();
});

describe("a tool call's live frames", () => {
  it("publishes started, progress every 2 s while it runs, and completed with status and output", async () => {
    vi.useFakeTimers();
    const { tools, frames } = publishing();
    let finish: (output: string) => void = () => {};
    const running = observed(
      tools,
      { callId: "c1", name: "http_request", args: { url: "u" } },
      () =>
        new Promise((resolve) => {
          finish = (output) => resolve({ status: "ok", output });
        }),
    );
    await vi.advanceTimersByTimeAsync(4_500);
    finish("HTTP 200");
    expect(await running).toEqual({ status: "ok", output: "HTTP 200" });
    expect(frames.map((frame) => Object.keys(frame)[0])).toEqual([
      "tool_call_started",
      "tool_call_progress",
      "tool_call_progress",
      "tool_call_completed",
    ]);
    expect(frames[0]).toEqual({
      tool_call_started: { name: "http_request", call_id: "c1", args_redacted: '{"url":"u"}' },
    });
    expect(frames[3]).toMatchObject({
      tool_call_completed: { name: "http_request", call_id: "c1", status: "ok", output_head: "HTTP 200" },
    });
  });

  it("turns a tool's throw into an error result for the model, but lets a lost lease through", async () => {
    const { tools, frames } = publishing();
    const failing = await observed(tools, { callId: "c2", name: "memory_write", args: {} }, async () => {
      throw new Error("boom");
    });
    expect(failing).toEqual({ status: "error", output: "The tool failed: boom" });
    expect(frames.at(-1)).toMatchObject({ tool_call_completed: { status: "error" } });
    const lost = observed(tools, { callId: "c3", name: "memory_write", args: {} }, async () => {
      throw new LeaseLostError(fakeLease().lease_id);
    });
    await expect(lost).rejects.toBeInstanceOf(LeaseLostError);
  });

  it("bounds the output to a head and a tail", () => {
    const long = `${"a".repeat(5_000)}${"z".repeat(5_000)}`;
    const pieces = outputPieces(long);
    expect(pieces.output_head).toBe("a".repeat(OUTPUT_PIECE_CHARS));
    expect(pieces.output_tail).toBe("z".repeat(OUTPUT_PIECE_CHARS));
    expect(outputPieces("short")).toEqual({ output_head: "short" });
  });
});
