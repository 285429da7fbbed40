import type { TenantPrincipal } from "../../auth/principal.ts";
import type { Actor } from "../shared/audit.ts";
import type { ServiceContext } from "../shared/context.ts";
import { answerDeviceSignIn } from "./device-sign-in-answer.ts";

/** Approves the sign-in waiting with this user code: its client's next poll gets a credential. */
export function approveDeviceSignIn(
  ctx: ServiceContext,
  actor: Actor,
  principal: TenantPrincipal,
  userCode: string,
) {
  return answerDeviceSignIn(ctx, actor, principal, userCode, "approved");
}
