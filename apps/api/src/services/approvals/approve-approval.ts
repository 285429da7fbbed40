import type { TenantPrincipal } from "../../auth/principal.ts";
import type { Actor } from "../shared/audit.ts";
import type { ServiceContext } from "../shared/context.ts";
import { type AnswerInput, answerGate } from "./answer-gate.ts";

/** Approves a pending gate: one person's approval, counted once; the rule's M-th distinct approval decides it. */
export function approveGate(
  ctx: ServiceContext,
  principal: TenantPrincipal,
  actor: Actor,
  input: AnswerInput,
) {
  return answerGate(ctx, principal, actor, "approved", input);
}
