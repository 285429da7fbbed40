import type { Actor } from "../shared/audit.ts";
import type { ServiceContext } from "../shared/context.ts";
import { createLibraryEntry, type LibraryEntryInput } from "./entry-creation.ts";

/** Creates an entry from a fleet definition in the library of one of the tenant's workspaces. */
export function createLibrary(
  ctx: ServiceContext,
  actor: Actor,
  tenantId: string,
  input: LibraryEntryInput & { workspace_id: string },
) {
  return createLibraryEntry(
    ctx,
    actor,
    { visibility: "tenant", tenantId, workspaceId: input.workspace_id },
    input,
  );
}
