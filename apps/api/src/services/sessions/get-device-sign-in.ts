import type { TenantPrincipal } from "../../auth/principal.ts";
import type { ServiceContext } from "../shared/context.ts";
import { findByUserCode, toView } from "./device-sign-in-view.ts";
import { guardUserCode } from "./user-code-guard.ts";

/** What /device shows for a user code: who asks, when, and whether it was answered. */
export function getDeviceSignIn(ctx: ServiceContext, principal: TenantPrincipal, userCode: string) {
  return guardUserCode(ctx, principal.userId, async () => {
    const row = await findByUserCode(ctx, userCode, ctx.now());
    return row === null ? null : toView(row, userCode);
  });
}
