import { type Lease, toolBlastRadius, toolGateKind } from "@fleet/contracts";
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

/**
 * The gate a call of a gated tool opens (marked `approval: required`, or named by the workspace's approval
 * policy): the tool and its arguments, the step's text, the definition's blast radius, and the arguments'
 * JSON Schema, against which the service checks an approver's edit.
 */
export function toolGateRequest(
  lease: Lease,
  call: { callId: string; name: string; args: unknown },
  stepText: string,
  schema?: Record<string, unknown>,
): GateRequest {
  const args = JSON.stringify(call.args ?? {});
  const text = stepText.trim();
  return {
    action_id: toolActionId(lease.event_id, call.callId),
    tool_name: call.name,
    action_name: call.name,
    gate_kind: toolGateKind(call.name),
    proposed_action: `${call.name} ${args}`.slice(0, ACTION_CHARS),
    evidence: {
      call_id: call.callId,
      ...(text === "" ? {} : { model_text: text.slice(0, EVIDENCE_CHARS) }),
    },
    blast_radius: toolBlastRadius(lease.fleet, call.name),
    detail: `Calls of ${call.name} wait for approval (the fleet's definition or the workspace's approval policy). Approving runs this call once; approving with changes runs your edited arguments ("${call.name} {…}"); denying tells the model it was refused.`,
    ...(schema === undefined ? {} : { action_schema: schema }),
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

/** The arguments of an approver's `amended_action` (`<tool> <arguments as JSON>`), or why they are not. */
function amendedArgs(gate: RunnerGate, name: string): { args: unknown } | { fault: string } {
  const action = gate.amended_action ?? "";
  if (!action.startsWith(`${name} `)) return { fault: `it does not name ${name}` };
  try {
    return { args: JSON.parse(action.slice(name.length + 1)) };
  } catch {
    return { fault: "its arguments are not JSON" };
  }
}

/**
 * When an earlier lease of this event already started the approved action (it must not run again); null
 * when this lease is the one to run it.
 */
async function ranBefore(tools: LeaseTools, gate: RunnerGate): Promise<number | null> {
  try {
    const ran = await tools.markGateRan(gate.gate_id);
    return ran.first ? null : ran.action_ran_at;
  } catch (error) {
    // A service that predates the record (no such route) cannot say: the action runs, as it did before.
    if (error instanceof ApiError && error.status === 404 && error.code === "UZ-REQ-004") return null;
    throw error;
  }
}

function alreadyRan(name: string, at: number): ToolOutcome {
  return {
    status: "refused",
    output: `This approved ${name} call already ran in an earlier attempt of this run (started ${new Date(at).toISOString()}); it was not run again, and its result is not known here.`,
  };
}

/**
 * Runs `run` once the gate for this call is approved: with the approver's edited arguments when they
 * changed it (`run(args)`; the service checked them against the tool's schema, `run` checks again), as the
 * model wrote it otherwise (`run()`). When it is denied or times out, the model is told so (with the
 * approver's reason) and the tool does not run. An approved action an earlier lease of the event already
 * started is not run again. A gate the service will not open is the model's `error` result, the tool not
 * run. A lost lease propagates.
 */
export async function gated(
  tools: LeaseTools,
  request: GateRequest,
  run: (amended?: unknown) => Promise<ToolOutcome>,
): Promise<ToolOutcome> {
  const name = request.tool_name;
  let gate: RunnerGate;
  let ran: number | null;
  let amended: { args: unknown } | { fault: string } | null;
  try {
    gate = await awaitApproval(tools, request);
    if (gate.outcome !== "approved") return notApproved(gate, name);
    amended = gate.amended_action === null ? null : amendedArgs(gate, name);
    // An edit that cannot be applied is not run, so it is not recorded as started either.
    if (amended !== null && "fault" in amended)
      return {
        status: "refused",
        output: `The approver changed this ${name} call, but the change cannot be applied (${amended.fault}), so the tool did not run.`,
      };
    ran = await ranBefore(tools, gate);
  } catch (error) {
    if (error instanceof LeaseLostError || !(error instanceof ApiError)) throw error;
    return {
      status: "error",
      output: `Could not ask for approval of this ${name} call (${error.code ?? error.status}: ${String(error.problem.detail ?? "")}). The tool did not run.`,
    };
  }
  if (ran !== null) return alreadyRan(name, ran);
  return amended === null ? run() : run(amended.args);
}
