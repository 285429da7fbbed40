import { type DeviceSignInView, formatUserCode } from "@fleet/contracts";
import { and, desc, deviceSignIns, eq, gt } from "@fleet/db";
import { sha256Hex } from "../../auth/tokens.ts";
import type { ServiceContext } from "../shared/context.ts";

type Row = typeof deviceSignIns.$inferSelect;

export function toView(row: Row, userCode: string): DeviceSignInView {
  return {
    user_code: formatUserCode(userCode),
    client_name: row.clientName,
    client_host: row.clientHost,
    requested_at: row.createdAt,
    expires_at: row.expiresAt,
    status: row.status === "spent" ? "approved" : (row.status as DeviceSignInView["status"]),
  };
}

/** The newest sign-in with this user code that has not expired, or null. */
export async function findByUserCode(
  ctx: ServiceContext,
  userCode: string,
  now: number,
): Promise<Row | null> {
  const [row] = await ctx.db
    .select()
    .from(deviceSignIns)
    .where(and(eq(deviceSignIns.userCodeHash, sha256Hex(userCode)), gt(deviceSignIns.expiresAt, now)))
    .orderBy(desc(deviceSignIns.createdAt))
    .limit(1);
  return row ?? null;
}
