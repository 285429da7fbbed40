import type { Lease } from "@fleet/contracts";
import type { GateRequest, RunnerGate } from "../../api.ts";
import { awaitApproval, nameUuid } from "../../approval.ts";
import { LeaseLostError, type LeaseTools } from "../../executor.ts";
import { ApiError } from "../../http.ts";
import type { ToolOutcome } from "./frames.ts";

/** The proposed action's share of the gate (the contract allows 16 Ki characters). */
const ACTION_CHARS = 16 * 1024;
/** The model's text of the step, as evidence: well under the 64 KiB cap even when escaped. */
const EVIDENCE_CHARS = 8 * 1024;

/**
 * The gate's action_id: a name-based UUID (version 5) of the lease's event and the model's tool call id,
 * so a reclaimed run of the same event that reaches the same call finds its gate, and its answer, again.
 */
export function toolActionId(eventId: string, callId: string): string {
  return nameUuid(`fleet-runner agent tool\n${eventId}\n${callId}`);
}

/** The gate a call of a tool marked `approval: required` opens: the tool and its arguments, the step's text. */
export function toolGateRequest(
  lease: Lease,
  call: { callId: string; name: string; args: unknown },
  stepText: string,
): GateRequest {
  const args = JSON.stringify(call.args ?? {});
  const text = stepText.trim();
  return {
    action_id: toolActionId(lease.event_id, call.callId),
    tool_name: call.name,
    action_name: call.name,
    gate_kind: "approval",
    proposed_action: `${call.name} ${args}`.slice(0, ACTION_CHARS),
    evidence: {
      call_id: call.callId,
      ...(text === "" ? {} : { model_text: text.slice(0, EVIDENCE_CHARS) }),
    },
    blast_radius: `Whatever ${call.name} does with these arguments.`,
    detail: `The fleet's definition marks ${call.name} approval: required. Approving runs this call once; denying tells the model it was refused.`,
  };
}

/** What the model is told when the call was not approved: nothing ran, and why. */
function notApproved(gate: RunnerGate, name: string): ToolOutcome {
  const reason = gate.reason ? `: ${gate.reason}` : ".";
  const said =
    gate.outcome === "timed_out"
      ? `Nobody answered the approval of this ${name} call in time`
      : gate.outcome === "denied" || gate.outcome === null
        ? `The approval of this ${name} call was denied by ${gate.resolved_by ?? "someone"}${reason}`
        : `The approval of this ${name} call ended ${gate.outcome}${reason}`;
  return { status: "denied", output: `${said.replace(/\.$/, "")}. The tool did not run.` };
}

/**
 * Runs `run` once the gate for this call is approved; when it is denied or times out, the model is told
 * so (with the approver's reason) and the tool does not run. A gate the service will not open is the
 * model's `error` result, the tool not run. A lost lease propagates.
 */
export async function gated(
  tools: LeaseTools,
  request: GateRequest,
  run: () => Promise<ToolOutcome>,
): Promise<ToolOutcome> {
  let gate: RunnerGate;
  try {
    gate = await awaitApproval(tools, request);
  } catch (error) {
    if (error instanceof LeaseLostError || !(error instanceof ApiError)) throw error;
    return {
      status: "error",
      output: `Could not ask for approval of this ${request.tool_name} call (${error.code ?? error.status}: ${String(error.problem.detail ?? "")}). The tool did not run.`,
    };
  }
  if (gate.outcome !== "approved") return notApproved(gate, request.tool_name);
  // Approval with changes is a later increment: an amended action is not run as the model wrote it.
  // (amended_action, not approved_action: the stored proposal is masked, so it may differ from ours.)
  if (gate.amended_action !== null)
    return {
      status: "denied",
      output: `The approver changed this ${request.tool_name} call (to: ${gate.approved_action}); this runner cannot apply changes yet, so the tool did not run.`,
    };
  return run();
}
