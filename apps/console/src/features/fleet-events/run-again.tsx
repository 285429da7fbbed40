"use client";

import { retryableEventStatuses } from "@fleet/contracts/fleet-events/values";
import { GuardedButton } from "@fleet/ui";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { Link } from "../../components/link.tsx";
import { ActionProblem } from "../../components/query-problem.tsx";
import { useTRPC } from "../../lib/trpc.ts";
import "./run-again.css";

const finished = (status: string | undefined) =>
  (retryableEventStatuses as readonly string[]).includes(status ?? "");

/**
 * "Run again": a new event with the same request, linked to this one (`retry_of`), which then opens.
 * Only a finished run can be run again; before that the button says why. Each click is a new run (the API
 * does not fold repeats), so the button is busy while its request is in flight.
 */
export function RunAgainButton({
  workspaceId,
  fleetId,
  eventId,
  status,
  openHref,
  size = "md",
}: {
  workspaceId: string;
  fleetId: string;
  eventId: string;
  status: string | undefined;
  /** Where the new event opens (the inspect dialog's URL for it). */
  openHref: (eventId: string) => string;
  size?: "sm" | "md";
}) {
  const trpc = useTRPC();
  const router = useRouter();
  const queryClient = useQueryClient();
  const retry = useMutation(
    trpc.fleetEvents.retry.mutationOptions({
      onSuccess: async (answer) => {
        await queryClient.invalidateQueries({ queryKey: trpc.fleetEvents.pathKey() });
        router.push(openHref(answer.event_id), { scroll: false });
      },
    }),
  );
  return (
    <span className="run-again">
      <GuardedButton
        size={size}
        variant="secondary"
        pending={retry.isPending}
        aria-label={`Run event ${eventId.slice(0, 8)} again`}
        unavailable={
          finished(status)
            ? null
            : status === "gate_blocked"
              ? "An event refused before it ran cannot be run again."
              : "Only a finished run can be run again."
        }
        onClick={() => retry.mutate({ workspace_id: workspaceId, fleet_id: fleetId, event_id: eventId })}
      >
        Run again
      </GuardedButton>
      {retry.data ? (
        <span role="status" className="run-again__started">
          Started.{" "}
          <Link href={openHref(retry.data.event_id)} scroll={false}>
            Open the new run
          </Link>
        </span>
      ) : null}
      <ActionProblem action={retry} />
    </span>
  );
}
