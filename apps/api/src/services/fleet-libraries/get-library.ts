import { Problem } from "@fleet/contracts";
import { and, eq, fleetLibraries, or } from "@fleet/db";
import type { ServiceContext } from "../shared/context.ts";
import { requireWorkspace } from "../shared/tenancy.ts";
import { toLibraryEntryView } from "./item.ts";

/**
 * One entry as the workspace may see it: a platform entry, or one of its own. Any other id, another
 * workspace's entry included, is 404 UZ-BUNDLE-001, indistinguishable from an absent one.
 */
export async function getLibrary(
  ctx: ServiceContext,
  tenantId: string,
  input: { workspace_id: string; library_id: string },
) {
  await requireWorkspace(ctx.db, tenantId, input.workspace_id);
  const [row] = await ctx.db
    .select()
    .from(fleetLibraries)
    .where(
      and(
        eq(fleetLibraries.id, input.library_id),
        or(
          eq(fleetLibraries.visibility, "platform"),
          and(eq(fleetLibraries.workspaceId, input.workspace_id), eq(fleetLibraries.tenantId, tenantId)),
        ),
      ),
    );
  if (row === undefined) {
    throw new Problem("UZ-BUNDLE-001", {
      detail: `No library entry ${input.library_id} in this workspace's library.`,
    });
  }
  return toLibraryEntryView(row);
}
