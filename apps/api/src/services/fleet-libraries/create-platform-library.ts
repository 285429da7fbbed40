import type { ServiceContext } from "../shared/context.ts";
import { createLibraryEntry, type LibraryEntryInput } from "./entry-creation.ts";

/** Onboards a fleet definition into the platform library, which every workspace sees. */
export function createPlatformLibrary(ctx: ServiceContext, input: LibraryEntryInput) {
  return createLibraryEntry(ctx, { visibility: "platform" }, input);
}
