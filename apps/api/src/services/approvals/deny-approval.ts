import type { TenantPrincipal } from "../../auth/principal.ts";
import type { Actor } from "../shared/audit.ts";
import type { ServiceContext } from "../shared/context.ts";
import { type AnswerInput, answerGate } from "./answer-gate.ts";

/** Denies a pending gate: any one denial decides it. */
export function denyGate(ctx: ServiceContext, principal: TenantPrincipal, actor: Actor, input: AnswerInput) {
  return answerGate(ctx, principal, actor, "denied", input);
}
