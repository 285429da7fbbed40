"use client";

import { skipToken, useQuery } from "@tanstack/react-query";
import { useTRPC } from "../../lib/trpc.ts";
import { UUID } from "../../lib/uuid.ts";

/** What the console knows of an id's workspace while it asks the API. */
export interface IdWorkspace {
  /** Still asking: a page that would pick a workspace by itself waits. */
  finding: boolean;
  /** The workspace the id belongs to, once found. */
  workspaceId: string | undefined;
  /** The API knows no id of the kind asked that the person may read (or the id is no id at all). */
  missing: boolean;
}

/**
 * Where a fleet, event or gate id belongs (`ids.resolve`), for a link that carries the id without its
 * workspace. Asked once per id (the place of an id never changes); a refusal is final, an outage is
 * retried as any query is. `kind` is the kind the page needs: an id of another kind is missing here.
 */
export function useIdWorkspace(id: string | undefined, kind: "fleet" | "event" | "gate"): IdWorkspace {
  const trpc = useTRPC();
  const asked = id !== undefined && UUID.test(id);
  const place = useQuery(
    trpc.ids.resolve.queryOptions(asked ? { id } : skipToken, { staleTime: Number.POSITIVE_INFINITY }),
  );
  if (id === undefined) return { finding: false, workspaceId: undefined, missing: false };
  if (!asked) return { finding: false, workspaceId: undefined, missing: true };
  const found = place.data?.kind === kind ? place.data.workspace_id : undefined;
  return {
    finding: place.isPending && place.fetchStatus !== "idle",
    workspaceId: found,
    missing: place.data !== undefined ? found === undefined : place.isError,
  };
}
