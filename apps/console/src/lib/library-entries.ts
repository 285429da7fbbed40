import type { StatusVariant } from "@fleet/ui";
import type { RouterOutputs } from "./trpc.ts";

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
