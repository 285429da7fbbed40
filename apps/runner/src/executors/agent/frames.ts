import type { LeaseTools } from "../../executor.ts";
import { LeaseLostError } from "../../executor.ts";

/** A tool call's end: how it went, and the text the model is given. */
export interface ToolOutcome {
  status: "ok" | "error" | "refused" | "denied";
  output: string;
}

/** A tool running longer than this publishes a progress frame, and again each time it passes. */
export const PROGRESS_EVERY_MS = 2_000;
/** The completed frame carries at most this many characters of the output's head, and of its tail. */
export const OUTPUT_PIECE_CHARS = 2_048;
/** The arguments as the started frame shows them (the contract caps the field at 16 KiB). */
const ARGS_CHARS = 8 * 1024;

/** The head and tail of a tool's output for people watching; the whole when it is short. */
export function outputPieces(output: string): { output_head: string; output_tail?: string } {
  if (output.length <= 2 * OUTPUT_PIECE_CHARS) return { output_head: output };
  return { output_head: output.slice(0, OUTPUT_PIECE_CHARS), output_tail: output.slice(-OUTPUT_PIECE_CHARS) };
}

/**
 * Runs one tool call between its live frames: `tool_call_started` (call id, name, the model's arguments
 * as it wrote them: placeholders, never secret values; the service masks any value it still finds),
 * `tool_call_progress` every 2 s while it runs, `tool_call_completed` with status, duration and the
 * output's head and tail. A failure the tool did not turn into an outcome is the model's `error` result;
 * a lost lease propagates.
 */
export async function observed(
  tools: LeaseTools,
  call: { callId: string; name: string; args: unknown },
  run: () => Promise<ToolOutcome>,
): Promise<ToolOutcome> {
  const started = Date.now();
  const ids = { name: call.name, call_id: call.callId };
  await tools.publish({
    tool_call_started: { ...ids, args_redacted: JSON.stringify(call.args ?? {}).slice(0, ARGS_CHARS) },
  });
  const progress = setInterval(() => {
    void tools.publish({ tool_call_progress: { ...ids, elapsed_ms: Date.now() - started } });
  }, PROGRESS_EVERY_MS);
  let outcome: ToolOutcome;
  try {
    outcome = await run();
  } catch (error) {
    if (error instanceof LeaseLostError || tools.signal.aborted) throw error;
    outcome = {
      status: "error",
      output: `The tool failed: ${error instanceof Error ? error.message : String(error)}`,
    };
  } finally {
    clearInterval(progress);
  }
  await tools.publish({
    tool_call_completed: {
      ...ids,
      ms: Date.now() - started,
      status: outcome.status,
      ...outputPieces(outcome.output),
    },
  });
  return outcome;
}
