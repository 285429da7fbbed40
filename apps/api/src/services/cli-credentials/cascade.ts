import { and, cliCredentials, deviceSignIns, eq, inArray, isNull, type Tx } from "@fleet/db";
import { notifyPrincipalChange } from "../shared/context.ts";

/**
 * Revokes, in the caller's transaction, every command-line credential approved through one of these
 * (`session:<id>` or `cli:<id>`), and those approved through them, to the end of the chain; sign-ins
 * approved through them but not yet collected are denied, so none turns into a credential later. Sends
 * `cli:<id>` on `fleet_auth` for each; answers the revoked ids, for the caller to await every instance's
 * ack once committed (`principalsChanged`).
 */
export async function revokeApprovedThrough(
  tx: Tx,
  roots: readonly string[],
  now: number,
): Promise<string[]> {
  const revoked: string[] = [];
  let through = [...roots];
  // Bounded: each round revokes at least one not yet revoked credential, or stops.
  while (through.length > 0) {
    await tx
      .update(deviceSignIns)
      .set({ status: "denied" })
      .where(and(inArray(deviceSignIns.approvedVia, through), eq(deviceSignIns.status, "approved")));
    const children = await tx
      .update(cliCredentials)
      .set({ revokedAt: now })
      .where(and(inArray(cliCredentials.approvedVia, through), isNull(cliCredentials.revokedAt)))
      .returning({ id: cliCredentials.id });
    for (const child of children) {
      revoked.push(child.id);
      await notifyPrincipalChange(tx, `cli:${child.id}`);
    }
    through = children.map((child) => `cli:${child.id}`);
  }
  return revoked;
}
