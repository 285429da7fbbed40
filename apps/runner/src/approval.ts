import { createHash } from "node:crypto";
import type { GateRequest, RunnerGate } from "./api.ts";
import { backoffDelay, sleep } from "./backoff.ts";
import { LeaseLostError, type LeaseTools } from "./executor.ts";
import { ApiError, NetworkError } from "./http.ts";

/** One wait's length: under the service's 30 s cap, so each call comes back with an answer or `pending`. */
export const GATE_WAIT_MS = 25_000;

/**
 * A name-based UUID (version 5 layout, SHA-1) of `name`: the same name gives the same UUID, which makes a
 * gate's `action_id` stable across runs of the same event.
 */
export function nameUuid(name: string): string {
  const bytes = createHash("sha1").update(name).digest();
  bytes[6] = (bytes[6]! & 0x0f) | 0x50;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.subarray(0, 16).toString("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

function transient(error: unknown): boolean {
  return (
    error instanceof NetworkError ||
    (error instanceof ApiError && (error.status === 429 || error.status >= 500))
  );
}

/**
 * Opens a gate for a proposed action (or finds the one its `action_id` already opened) and waits until a
 * person answers it, it times out, or the fleet is stopped: the gate with its `outcome`. Waits are
 * repeated for as long as it takes; the lease stays renewed meanwhile. Throws `LeaseLostError` when the
 * lease is lost (the newer holder opens the same gate by action_id and reads the answer), and the
 * service's refusal when the gate cannot be opened. `onWait` is told after each wait that came back
 * pending (for progress frames).
 */
export async function awaitApproval(
  tools: LeaseTools,
  request: GateRequest,
  onWait?: (gate: RunnerGate) => Promise<void> | void,
): Promise<RunnerGate> {
  let gate = await tools.openGate(request);
  let failures = 0;
  while (gate.status === "pending") {
    try {
      gate = await tools.waitGate(gate.gate_id, GATE_WAIT_MS);
      failures = 0;
      if (gate.status === "pending") await onWait?.(gate);
    } catch (error) {
      if (error instanceof LeaseLostError || !transient(error)) throw error;
      // The service is unreachable past the call's own retries: keep waiting while the lease holds.
      await sleep(backoffDelay(failures++), tools.signal);
    }
  }
  return gate;
}
