"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useEffect, useId, useRef, useState } from "react";
import type { LibraryItem } from "../../lib/library-entries.ts";
import { statusOf } from "../../lib/problem.ts";
import { type RouterOutputs, useTRPC } from "../../lib/trpc.ts";

export type InstalledFleet = RouterOutputs["fleets"]["create"];

/**
 * The install dialog's two steps: the entry chosen, whether its review is shown, and the focus, which goes
 * with the step (Continue and Back leave with their step) to the new step's field.
 */
export function useInstallSteps(initialEntry: LibraryItem | undefined) {
  const [entry, setEntry] = useState<LibraryItem | null>(initialEntry ?? null);
  const [reviewing, setReviewing] = useState(initialEntry !== undefined);
  const stepsId = useId();
  // Set by Continue and Back: the button pressed leaves with its step, so focus goes to the new step's
  // field (the fleet name; the chosen entry) rather than to the page's body.
  const stepMoved = useRef(false);
  useEffect(() => {
    if (!stepMoved.current) return;
    stepMoved.current = false;
    const step = document.getElementById(stepsId);
    const target = reviewing
      ? step?.querySelector<HTMLElement>("[data-step-focus]")
      : (step?.querySelector<HTMLElement>("input[type=radio]:checked") ??
        step?.querySelector<HTMLElement>("input[type=radio]"));
    target?.focus();
  }, [reviewing, stepsId]);
  return {
    entry,
    setEntry,
    reviewing,
    stepsId,
    /** Continue or Back: to the review, or back to the choice. */
    step: (review: boolean) => {
      stepMoved.current = true;
      setReviewing(review);
    },
    /** Back to where the dialog opens, for the next time it does. */
    reset: () => {
      setEntry(initialEntry ?? null);
      setReviewing(initialEntry !== undefined);
    },
  };
}

/** Installs the fleet; a 424 (a credential missing after all) reads the workspace's secrets again. */
export function useInstall(workspaceId: string, onInstalled: (fleet: InstalledFleet) => void) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return useMutation(
    trpc.fleets.create.mutationOptions({
      onSuccess: async (fleet) => {
        await queryClient.invalidateQueries({ queryKey: trpc.fleets.list.pathKey() });
        onInstalled(fleet);
      },
      // A 424 means the workspace's secrets differ from what the checklist showed: read them again.
      onError: (error) =>
        statusOf(error) === 424
          ? queryClient.invalidateQueries({
              queryKey: trpc.secrets.list.queryKey({ workspace_id: workspaceId }),
            })
          : undefined,
    }),
  );
}
