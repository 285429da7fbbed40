import type { StatusVariant } from "@fleet/ui";
import type { RouterOutputs } from "../../lib/trpc.ts";
import { withQuery } from "../../lib/urls.ts";

export type LibraryItem = RouterOutputs["fleetLibraries"]["list"]["items"][number];
export type LibraryEntry = RouterOutputs["fleetLibraries"]["get"];
export type Visibility = LibraryItem["visibility"];

/** Where an entry is visible: every workspace (the platform's) or only the one that added it. */
export const visibilityVariants: Record<Visibility, StatusVariant> = {
  platform: { label: "Platform", tone: "info" },
  tenant: { label: "Tenant", tone: "neutral" },
};

export const visibilityMeaning: Record<Visibility, string> = {
  platform: "Offered by the platform to every workspace.",
  tenant: "Added by your tenant; only this workspace sees it.",
};

/** The library's URL: its workspace and page live in the URL. */
export function libraryHref(workspaceId?: string, startingAfter?: string): string {
  return withQuery("/library", { workspace: workspaceId, starting_after: startingAfter });
}

export function entryHref(workspaceId: string, libraryId: string): string {
  return withQuery(`/library/${encodeURIComponent(libraryId)}`, { workspace: workspaceId });
}

/** Where the definition came from, in words: an upload (with its digest) or a repository at a commit. */
export function describeSource(sourceRef: string): { kind: "upload" | "git" | "other"; text: string } {
  if (sourceRef.startsWith("upload:sha256:")) {
    return { kind: "upload", text: `Uploaded · sha256 ${sourceRef.slice("upload:sha256:".length, 26)}…` };
  }
  if (sourceRef.startsWith("git:")) {
    const [url, commit] = sourceRef.slice(4).split("#");
    return { kind: "git", text: commit ? `${url} @ ${commit.slice(0, 12)}` : (url ?? sourceRef) };
  }
  return { kind: "other", text: sourceRef };
}
