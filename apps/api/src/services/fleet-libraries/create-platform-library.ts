import type { ServiceContext } from "../shared/context.ts";
import { createLibraryEntry, type LibraryEntryInput } from "./entry-creation.ts";

/** Creates an entry of the platform library from a fleet definition, which every workspace sees. */
export function createPlatformLibrary(ctx: ServiceContext, input: LibraryEntryInput) {
  return createLibraryEntry(ctx, { visibility: "platform" }, input);
}
