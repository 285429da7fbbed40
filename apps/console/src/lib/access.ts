"use client";

import type { TenantScope } from "@fleet/contracts/scopes";
import { hasScope } from "@fleet/contracts/scopes";
import { useQuery } from "@tanstack/react-query";
import { useMemo } from "react";
import { type ConsolePage, consolePages } from "./pages.ts";
import { useTRPC } from "./trpc.ts";

/** Whether the signed-in person can open a page: open, left out of the navigation, or shown disabled. */
export type PageReach = "open" | "hidden" | "disabled";

/** Where a page stands for someone holding `held`; unknown scopes (loading, failed) open every page. */
export function reachOf(page: ConsolePage, held: readonly string[] | undefined): PageReach {
  if (held === undefined || page.scope === undefined || hasScope(held, page.scope)) return "open";
  return page.lacking === "hide" ? "hidden" : "disabled";
}

/** What a disabled page's tooltip says. */
export function lackingText(page: ConsolePage): string {
  return `Needs the scope ${page.scope}: ask a tenant administrator.`;
}

/**
 * The signed-in person's scopes, as users/me reports them (the shell's own query, narrowed to the key's
 * scopes for a console signed in with an API key); undefined until known. The API still checks every
 * request: this only keeps the console from offering what will be refused.
 */
export function useHeldScopes(): readonly string[] | undefined {
  const trpc = useTRPC();
  return useQuery(trpc.users.getMe.queryOptions({})).data?.scopes;
}

/** What an action's disabled button says when the signed-in person lacks the scope it needs. */
export function lackingScopeText(scope: TenantScope): string {
  return `Needs the scope ${scope}: ask a tenant administrator.`;
}

/**
 * Why the signed-in person cannot do what needs `scope`, or null when they can or while their scopes are
 * unknown (the API decides then, as it always does): an action the API would refuse is shown disabled
 * with the scope to ask for, as the navigation shows a page, not offered and then refused.
 */
export function useLacking(scope: TenantScope): string | null {
  const held = useHeldScopes();
  return held === undefined || hasScope(held, scope) ? null : lackingScopeText(scope);
}

/** Every page with where it stands for the signed-in person. */
export function usePageReach(): { page: ConsolePage; reach: PageReach }[] {
  const held = useHeldScopes();
  // The query keeps its answer's identity while it is unchanged, so this list does too.
  return useMemo(() => consolePages.map((page) => ({ page, reach: reachOf(page, held) })), [held]);
}

/**
 * The pages the signed-in person can open: the `g` keys and the palette offer only these. While the scopes
 * are unknown (users/me loading or failed) they offer only pages that need none: a `g m` pressed as the page
 * loads must not open Members for someone the navigation will hide it from.
 */
export function useOpenPages(): ConsolePage[] {
  const held = useHeldScopes();
  return useMemo(
    () =>
      consolePages.filter((page) =>
        held === undefined ? page.scope === undefined : reachOf(page, held) === "open",
      ),
    [held],
  );
}
