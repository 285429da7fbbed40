import type { Actor } from "../shared/audit.ts";
import type { ServiceContext } from "../shared/context.ts";
import { createLibraryEntry, type LibraryEntryInput } from "./entry-creation.ts";

/** Creates an entry of the platform library from a fleet definition, which every workspace sees. */
export function createPlatformLibrary(ctx: ServiceContext, actor: Actor, input: LibraryEntryInput) {
  return createLibraryEntry(ctx, actor, { visibility: "platform" }, input);
}
