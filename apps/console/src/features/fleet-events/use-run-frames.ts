"use client";

import { useQuery } from "@tanstack/react-query";
import { type ApiError, useTRPC, useTRPCClient } from "../../lib/trpc.ts";
import type { RunFrame } from "./stream-frames.ts";

const PAGE_SIZE = 200;
/** Pages read at most: two leases' worth of the 2,000 frames a lease keeps. */
const MAX_PAGES = 20;

export interface StoredRunFrames {
  frames: RunFrame[];
  retentionHours: number;
}

/**
 * The frames the event's runs published and the API kept (`GET …/events/{id}/frames`), all pages, as the
 * live tail sent them: what a run's page shows after a reload, before any live frame comes.
 */
export function useRunFrames(scope: { workspace_id: string; fleet_id: string }, eventId: string) {
  const trpc = useTRPC();
  const client = useTRPCClient();
  return useQuery<StoredRunFrames, ApiError>({
    queryKey: [...trpc.fleetEvents.listFrames.pathKey(), { ...scope, eventId }],
    queryFn: async () => {
      const frames: RunFrame[] = [];
      let cursor: string | null = null;
      let retentionHours = 168;
      for (let page = 0; page < MAX_PAGES; page += 1) {
        const read: Awaited<ReturnType<typeof client.fleetEvents.listFrames.query>> =
          await client.fleetEvents.listFrames.query({
            ...scope,
            event_id: eventId,
            limit: PAGE_SIZE,
            ...(cursor === null ? {} : { starting_after: cursor }),
          });
        retentionHours = read.retention_hours;
        for (const item of read.items) frames.push({ ...item, ...scope, event_id: eventId } as RunFrame);
        cursor = read.next_cursor;
        if (cursor === null) break;
      }
      return { frames, retentionHours };
    },
    // Live frames carry the run on from here; a reload or a stream gap reads them again.
    staleTime: Number.POSITIVE_INFINITY,
  });
}
