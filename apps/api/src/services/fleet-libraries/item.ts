import type { LibraryEntry } from "./entries.ts";

/** An entry as lists and its creation answer it: metadata, never the instructions. */
export function toLibraryItem(row: LibraryEntry) {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    visibility: row.visibility as "platform" | "tenant",
    source_ref: row.sourceRef,
    requirements: row.requirements,
    model: row.model,
    required_credentials_reasons: row.credentialReasons,
    created_at: row.createdAt,
  };
}

/** An entry in full: what an install would copy. */
export function toLibraryEntryView(row: LibraryEntry) {
  return { ...toLibraryItem(row), instructions: row.instructions, triggers: row.triggers };
}
