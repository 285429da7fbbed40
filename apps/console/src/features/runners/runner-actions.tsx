"use client";

import {
  ConfirmDialog,
  GuardedButton,
  PauseIcon,
  PlayIcon,
  StopIcon,
  TrashIcon,
  TypedConfirmDialog,
} from "@fleet/ui";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { problemOf, statusOf } from "../../lib/problem.ts";
import { useTRPC } from "../../lib/trpc.ts";
import { runnersHref } from "../../lib/urls.ts";
import { type RunnerAction, unavailableActions } from "./availability.ts";
import type { OperatorSession } from "./operator-access.tsx";
import type { RunnerView } from "./status.ts";
import type { useRunnerUpdate } from "./use-runner-update.ts";

type Move = "cordoned" | "draining" | "active";

const moveWords: Record<Move, { verb: string; done: (host: string) => string }> = {
  cordoned: {
    verb: "Cordon",
    done: (host) => `Cordoned ${host}: it takes no new work; its running leases finish.`,
  },
  draining: {
    verb: "Drain",
    done: (host) => `Draining ${host}: it takes no new work and shows drained once its leases end.`,
  },
  active: { verb: "Reactivate", done: (host) => `Reactivated ${host}: it takes work again.` },
};

/**
 * The runner's actions, each disabled with its reason when the runner's state or the operator token does
 * not allow it. Cordon, drain and reactivate act at once (each is undone as easily); revoke asks for the
 * host's name typed out; delete asks first.
 */
export function RunnerActions({
  runner,
  operator,
  update,
  onEditPolicy,
  onDone,
}: {
  runner: RunnerView;
  operator: OperatorSession;
  update: ReturnType<typeof useRunnerUpdate>;
  onEditPolicy: () => void;
  onDone: (message: string) => void;
}) {
  const [confirming, setConfirming] = useState<"revoke" | "delete" | null>(null);
  const reasons = unavailableActions(runner, operator);
  const host = runner.host_id;
  const pendingStatus = update.isPending ? update.variables?.status : undefined;
  const label = (action: RunnerAction, verb: string) => ({
    "aria-label": `${verb} runner ${host}`,
    unavailable: reasons[action],
  });
  const move = (status: Move) =>
    update.mutate(
      { id: runner.runner_id, status },
      { onSuccess: () => onDone(moveWords[status].done(host)) },
    );

  return (
    <>
      <GuardedButton {...label("policy", "Edit policy of")} onClick={onEditPolicy}>
        Edit policy
      </GuardedButton>
      <GuardedButton
        {...label("cordon", "Cordon")}
        icon={<PauseIcon />}
        pending={pendingStatus === "cordoned"}
        onClick={() => move("cordoned")}
      >
        Cordon
      </GuardedButton>
      <GuardedButton
        {...label("drain", "Drain")}
        icon={<StopIcon />}
        pending={pendingStatus === "draining"}
        onClick={() => move("draining")}
      >
        Drain
      </GuardedButton>
      <GuardedButton
        {...label("reactivate", "Reactivate")}
        icon={<PlayIcon />}
        pending={pendingStatus === "active"}
        onClick={() => move("active")}
      >
        Reactivate
      </GuardedButton>
      <GuardedButton {...label("revoke", "Revoke")} variant="danger" onClick={() => setConfirming("revoke")}>
        Revoke
      </GuardedButton>
      <GuardedButton
        {...label("delete", "Delete")}
        icon={<TrashIcon />}
        onClick={() => setConfirming("delete")}
      >
        Delete
      </GuardedButton>
      <TypedConfirmDialog
        open={confirming === "revoke"}
        title={`Revoke runner ${host}?`}
        phrase={host}
        confirmLabel="Revoke runner"
        pending={update.isPending && pendingStatus === "revoked"}
        problem={update.error && update.variables?.status === "revoked" ? problemOf(update.error) : null}
        onCancel={() => {
          update.reset();
          setConfirming(null);
        }}
        onConfirm={() =>
          update.mutate(
            { id: runner.runner_id, status: "revoked" },
            {
              onSuccess: () => {
                setConfirming(null);
                onDone(`Revoked ${host}: its token is refused from now on. Delete it to drop its history.`);
              },
            },
          )
        }
      >
        <p className="dialog-text">
          Revoking is final. The token of <strong>{host}</strong> is refused at once on every API instance;
          the leases it holds expire and their work is handed out again. The runner cannot be reactivated: to
          use this host again, enrol it anew.
        </p>
      </TypedConfirmDialog>
      {confirming === "delete" ? (
        <DeleteRunnerDialog runner={runner} onClose={() => setConfirming(null)} />
      ) : null}
    </>
  );
}

function DeleteRunnerDialog({ runner, onClose }: { runner: RunnerView; onClose: () => void }) {
  const trpc = useTRPC();
  const router = useRouter();
  const queryClient = useQueryClient();
  const remove = useMutation(
    trpc.runners.delete.mutationOptions({
      onSuccess: async () => {
        queryClient.removeQueries({ queryKey: trpc.runners.get.queryKey({ id: runner.runner_id }) });
        await queryClient.invalidateQueries({ queryKey: trpc.runners.list.pathKey() });
        onClose();
        router.push(runnersHref());
      },
      // Gone already, or not revoked after all: the page behind the dialog is stale.
      onError: (error) =>
        [404, 409].includes(statusOf(error) ?? 0)
          ? queryClient.invalidateQueries({ queryKey: trpc.runners.get.queryKey({ id: runner.runner_id }) })
          : undefined,
    }),
  );
  return (
    <ConfirmDialog
      open
      title={`Delete runner ${runner.host_id}?`}
      confirmLabel="Delete runner"
      pending={remove.isPending}
      problem={remove.error ? problemOf(remove.error) : null}
      onCancel={onClose}
      onConfirm={() => remove.mutate({ id: runner.runner_id })}
    >
      <p className="dialog-text">
        <strong>{runner.host_id}</strong> and its history (its leases and events) are deleted. This cannot be
        undone; the fleets it served keep their own events.
      </p>
    </ConfirmDialog>
  );
}
