"use client";

import { useQuery } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useEffect } from "react";
import { useTRPC } from "./trpc.ts";

/** The picker lists this many workspaces, the most one page of the list holds. */
const WORKSPACE_LIMIT = 100;

/**
 * The workspace a page shows, chosen in the URL (`?workspace=<id>`) as on the Secrets page. With none in
 * the URL the first workspace is shown and written into the URL (replacing the entry), so the view can be
 * shared as it is. An id the list does not hold stays chosen: the page's own query then says why it fails.
 */
export function useWorkspaceChoice(
  workspaceId: string | undefined,
  hrefFor: (workspaceId: string) => string,
) {
  const trpc = useTRPC();
  const router = useRouter();
  const workspaces = useQuery(trpc.workspaces.list.queryOptions({ limit: WORKSPACE_LIMIT }));
  const items = workspaces.data?.items;
  const chosenId = workspaceId ?? items?.[0]?.id;
  const chosen = items?.find((workspace) => workspace.id === chosenId);
  const workspace = chosenId ? { id: chosenId, name: chosen?.name ?? "this workspace" } : undefined;

  const fallback = workspaceId === undefined ? items?.[0]?.id : undefined;
  const fallbackHref = fallback ? hrefFor(fallback) : undefined;
  useEffect(() => {
    if (fallbackHref) router.replace(fallbackHref, { scroll: false });
  }, [fallbackHref, router]);

  return {
    /** The workspaces query, for its error and loading state. */
    workspaces,
    items,
    chosenId,
    workspace,
    /** The tenant has more workspaces than the picker lists. */
    more: workspaces.data?.next_cursor != null,
    first: items?.[0],
  };
}
