"use client";

import { hasScope } from "@fleet/contracts/scopes";
import { skipToken, useQueries, useQuery } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { useHeldScopes } from "./access.ts";
import type { PaletteItem } from "./palette-match.ts";
import { useTRPC } from "./trpc.ts";
import { fleetHref, runnerHref } from "./urls.ts";

/** How long the palette's lists are reused before they are fetched again (they are read on every open). */
const LISTS_FRESH_MS = 60_000;
/** Workspaces whose fleets the palette lists (one list request each). */
const WORKSPACE_LIMIT = 20;

/** One thing the palette offers: a place to go to or an action to run. */
export type PaletteEntry = PaletteItem & ({ href: string } | { run: () => void });

/**
 * The fleets of the tenant's workspaces, the runners (when the browser holds operator access) and the API
 * keys, through their list procedures, fetched when the palette opens and reused for a minute. A list that
 * fails only leaves its group out, and the status line says so.
 */
export function usePaletteEntities(search: string): { items: PaletteEntry[]; note: string } {
  const trpc = useTRPC();
  const fresh = { staleTime: LISTS_FRESH_MS, retry: false } as const;
  // A list the person's scopes would have refused is not asked for: its group is simply not there.
  const held = useHeldScopes();
  const may = (scope: string) => held !== undefined && hasScope(held, scope);
  const workspaces = useQuery(trpc.workspaces.listVisible.queryOptions({ limit: 100 }, fresh));
  const shown = may("fleet:read") ? (workspaces.data?.items.slice(0, WORKSPACE_LIMIT) ?? []) : [];
  const fleets = useQueries({
    queries: shown.map((workspace) =>
      trpc.fleets.list.queryOptions({ workspace_id: workspace.id, limit: 100 }, fresh),
    ),
  });
  // A workspace with more fleets than its first list holds is asked for the typed name as well.
  const searched = useQueries({
    queries: shown.map((workspace, index) =>
      trpc.fleets.list.queryOptions(
        fleets[index]?.data?.next_cursor && search
          ? { workspace_id: workspace.id, limit: 100, name: search.slice(0, 100) }
          : skipToken,
        fresh,
      ),
    ),
  });
  const runners = useQuery(trpc.runners.list.queryOptions({ limit: 100 }, fresh));
  const keys = useQuery(
    trpc.apiKeys.list.queryOptions(may("apikey:read") ? { limit: 100 } : skipToken, fresh),
  );

  const several = shown.length > 1;
  const items: PaletteEntry[] = [
    ...shown.flatMap((workspace, index) =>
      uniqueById([...(fleets[index]?.data?.items ?? []), ...(searched[index]?.data?.items ?? [])]).map(
        (fleet) => ({
          id: `fleet:${fleet.id}`,
          group: "Fleets",
          label: fleet.name,
          detail: several ? `${fleet.status} · ${workspace.name}` : fleet.status,
          href: fleetHref({ workspaceId: workspace.id, fleetId: fleet.id, tab: "events" }),
        }),
      ),
    ),
    ...(runners.data?.items ?? []).map((runner) => ({
      id: `runner:${runner.runner_id}`,
      group: "Runners",
      label: runner.host_id,
      detail: [runner.liveness, ...runner.labels].join(" · "),
      href: runnerHref({ runnerId: runner.runner_id }),
    })),
    ...(keys.data?.items ?? []).map((key) => ({
      id: `key:${key.id}`,
      group: "API keys",
      label: key.key_name,
      detail: [key.key_prefix ? `${key.key_prefix}…` : null, key.active ? null : "revoked"]
        .filter(Boolean)
        .join(" · "),
      href: "/api-keys",
    })),
  ];
  const loading = [
    workspaces.isPending || fleets.some((query) => query.isPending) ? "fleets" : null,
    runners.isPending ? "runners" : null,
    keys.isLoading ? "API keys" : null,
  ].filter(Boolean);
  const failed = [
    workspaces.isError || fleets.some((query) => query.isError) ? "fleets" : null,
    keys.isError ? "API keys" : null,
  ].filter(Boolean);
  const note = [
    loading.length > 0 ? `Loading ${loading.join(", ")}…` : "",
    failed.length > 0 ? `Could not load ${failed.join(", ")}.` : "",
    // Runners are the operator's: without operator access in this browser the list is refused, not broken.
    runners.isError ? "Runners need operator access." : "",
  ]
    .filter(Boolean)
    .join(" ");
  return { items, note };
}

function uniqueById<T extends { id: string }>(items: T[]): T[] {
  const seen = new Set<string>();
  return items.filter((item) => !seen.has(item.id) && seen.add(item.id));
}

/** The value once it has stayed the same for `ms`. */
export function useSettled(value: string, ms: number): string {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}
