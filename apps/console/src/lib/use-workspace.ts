"use client";

import { keepPreviousData, type SkipToken, skipToken, useQuery } from "@tanstack/react-query";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useEffect, useState } from "react";
import { useTRPC } from "./trpc.ts";

/** The picker lists this many workspaces, the most one page of the list holds. */
export const WORKSPACE_LIMIT = 100;

/** Where the browser remembers the workspace last shown, for pages opened without one in the URL. */
const LAST_WORKSPACE_KEY = "fleet.workspace";

function rememberedWorkspace(): string | null {
  try {
    return typeof window === "undefined" ? null : window.localStorage.getItem(LAST_WORKSPACE_KEY);
  } catch {
    return null; // storage refused (a private window's policy): the first workspace, as before
  }
}

/**
 * The address of this page with `workspace` set and every other parameter kept as it is: a link that came
 * without a workspace (a fleet's "waiting for an answer" link to one gate, a filtered list, a page past
 * the first) keeps its target once the workspace is added.
 */
export function withWorkspace(address: string, workspaceId: string): string {
  const url = new URL(address, "http://console.invalid");
  url.searchParams.set("workspace", workspaceId);
  return `${url.pathname}${url.search}${url.hash}`;
}

/** This page's path and query as the router holds them. */
export function useAddress(): string {
  const pathname = usePathname();
  const search = useSearchParams().toString();
  return search ? `${pathname}?${search}` : pathname;
}

/**
 * The workspace a page shows, chosen in the URL (`?workspace=<id>`) as on the Secrets page. With none in
 * the URL, the workspace of the id the address names (`owner`: a gate's, while it is being looked up) or
 * else the one this browser showed last (the first one when it has none, or that one is gone) is shown
 * and written into the URL (replacing the entry, every other parameter kept), so the view can be shared as
 * it is. An id the list does not hold stays chosen: the page's own query then says why it fails.
 */
export function useWorkspaceChoice(
  workspaceId: string | undefined,
  owner?: { finding: boolean; workspaceId: string | undefined },
) {
  const trpc = useTRPC();
  const router = useRouter();
  // The list every member may read (GET /v1/workspaces), not the administrator's.
  const workspaces = useQuery(trpc.workspaces.listVisible.queryOptions({ limit: WORKSPACE_LIMIT }));
  const items = workspaces.data?.items;
  const [remembered] = useState(rememberedWorkspace);
  const fallback =
    workspaceId === undefined && !owner?.finding
      ? (owner?.workspaceId ?? (items?.find((workspace) => workspace.id === remembered) ?? items?.[0])?.id)
      : undefined;
  const chosenId = workspaceId ?? fallback;
  const chosen = items?.find((workspace) => workspace.id === chosenId);
  const workspace = chosenId ? { id: chosenId, name: chosen?.name ?? "this workspace" } : undefined;

  // Built from the address as the router holds it for this page (not `window.location`, which lags behind
  // a navigation still landing), not from what the page knows of it: no parameter can be dropped.
  const here = useAddress();
  useEffect(() => {
    if (fallback) router.replace(withWorkspace(here, fallback), { scroll: false });
  }, [fallback, here, router]);
  // A workspace shown from the URL, and one of the list, is the one to open next time.
  const shown = workspaceId !== undefined && chosen !== undefined ? workspaceId : undefined;
  useEffect(() => {
    if (shown === undefined) return;
    try {
      window.localStorage.setItem(LAST_WORKSPACE_KEY, shown);
    } catch {
      // not remembered; nothing else depends on it
    }
  }, [shown]);

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

export type WorkspaceChoice = ReturnType<typeof useWorkspaceChoice>;

/** Where a workspace's paged list stands, all of it held in the URL. */
export interface ListPosition {
  workspaceId: string | undefined;
  startingAfter: string | undefined;
  /** A cursor is bound to the page size it was issued for, so the size travels with it in the URL. */
  limit: number | undefined;
}

/**
 * A paged list of the chosen workspace: its links (which keep the page size a cursor needs), the list
 * query's input (skipped until a workspace is chosen), and placeholder data that keeps the previous page
 * while the next loads, but never a previous workspace's rows.
 */
export function useWorkspacePage(
  { workspaceId, startingAfter, limit }: ListPosition,
  hrefFor: (workspaceId: string, startingAfter?: string) => string,
) {
  const href = (id: string, after?: string) => {
    const base = hrefFor(id, after);
    return limit ? `${base}&limit=${limit}` : base;
  };
  const choice = useWorkspaceChoice(workspaceId);
  const { chosenId } = choice;
  const input: { workspace_id: string; starting_after?: string; limit?: number } | SkipToken = chosenId
    ? {
        workspace_id: chosenId,
        ...(startingAfter ? { starting_after: startingAfter } : {}),
        ...(limit ? { limit } : {}),
      }
    : skipToken;
  const placeholderData = <T>(
    previous: T | undefined,
    query: { queryKey: readonly unknown[] } | undefined,
  ) =>
    (query?.queryKey[1] as { input?: { workspace_id?: string } } | undefined)?.input?.workspace_id ===
    chosenId
      ? keepPreviousData(previous)
      : undefined;
  // Read-only, so the skip token keeps its own type instead of widening to symbol.
  return { ...choice, href, input, placeholderData } as const;
}

/**
 * The workspace in view for what stands beside every page (the navigation's counts): the URL's, else the
 * tenant's first. The same list query the pages' workspace picker makes, so it costs no extra request.
 */
export function useWorkspaceInView(): string | undefined {
  const trpc = useTRPC();
  const fromUrl = useSearchParams().get("workspace") || undefined;
  const workspaces = useQuery({
    ...trpc.workspaces.listVisible.queryOptions({ limit: WORKSPACE_LIMIT }),
    enabled: !fromUrl,
  });
  return fromUrl ?? workspaces.data?.items[0]?.id;
}
