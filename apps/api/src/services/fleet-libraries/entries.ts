import { Problem } from "@fleet/contracts";
import { and, type Database, eq, fleetLibraries, type Tx } from "@fleet/db";

/** A library entry as stored: the fleet definition an install copies. */
export type LibraryEntry = typeof fleetLibraries.$inferSelect;

export type LibraryEntryRef =
  | { platformLibraryId: string; tenantLibraryId?: undefined }
  | { tenantLibraryId: string; platformLibraryId?: undefined };

/**
 * The entry an install names, as the workspace may see it: a platform entry by its id, or a tenant entry
 * of this very workspace. Another workspace's entry is as absent as a missing one (404 UZ-BUNDLE-002).
 * The caller has already settled that the workspace is the tenant's.
 */
export async function readLibraryEntry(
  db: Database | Tx,
  ref: { tenantId: string; workspaceId: string } & LibraryEntryRef,
): Promise<LibraryEntry> {
  if (ref.platformLibraryId !== undefined) {
    const [row] = await db
      .select()
      .from(fleetLibraries)
      .where(and(eq(fleetLibraries.id, ref.platformLibraryId), eq(fleetLibraries.visibility, "platform")));
    if (row === undefined) {
      throw new Problem("UZ-BUNDLE-001", {
        detail: `No platform library entry ${ref.platformLibraryId}.`,
      });
    }
    return row;
  }
  const [row] = await db
    .select()
    .from(fleetLibraries)
    .where(
      and(
        eq(fleetLibraries.id, ref.tenantLibraryId),
        eq(fleetLibraries.visibility, "tenant"),
        eq(fleetLibraries.tenantId, ref.tenantId),
        eq(fleetLibraries.workspaceId, ref.workspaceId),
      ),
    );
  if (row === undefined) {
    throw new Problem("UZ-BUNDLE-002", {
      detail: `No library entry ${ref.tenantLibraryId} in this workspace.`,
    });
  }
  return row;
}
