"use client";

import {
  Button,
  browserTimeZone,
  Dialog,
  FormDialogFooter,
  formatLocal,
  ProblemAlert,
  TextField,
} from "@fleet/ui";
import { useMutation } from "@tanstack/react-query";
import { useId, useState } from "react";
import { countOf } from "../../lib/format.ts";
import { problemOf } from "../../lib/problem.ts";
import { useTRPC } from "../../lib/trpc.ts";
import { type Endpoint, endpointName } from "./endpoint.ts";
import { fromLocalInput, localInputValue, sinceProblem } from "./replay-time.ts";
import { useWebhooksRefresh } from "./use-deliveries.ts";

const HOUR = 60 * 60 * 1000;

/**
 * Replay since…: a time in the person's zone (an hour ago to start with); the answer says how many
 * deliveries it queued, and when more events matched than one replay takes, offers to go on from where
 * it stopped.
 */
export function ReplayDialog({
  endpoint,
  onQueued,
  onClose,
  onDone,
}: {
  endpoint: Endpoint;
  /** The replay answered: what its refetch brings to the log is the person's own doing, shown at once. */
  onQueued: () => void;
  onClose: () => void;
  onDone: (message: string) => void;
}) {
  const trpc = useTRPC();
  const refresh = useWebhooksRefresh();
  const formId = useId();
  const zone = browserTimeZone();
  const [initial] = useState(() => localInputValue(Date.now() - HOUR));
  const [fieldProblem, setFieldProblem] = useState<string | null>(null);
  // Every call's queued count, summed: going on from next_since adds to what the first call queued.
  const [total, setTotal] = useState(0);
  const replay = useMutation(
    trpc.webhookEndpoints.replay.mutationOptions({
      onSuccess: async (answer) => {
        setTotal((sum) => sum + answer.queued);
        onQueued();
        await refresh();
      },
    }),
  );
  const name = endpointName(endpoint);
  const send = (since: number) =>
    replay.mutate({ workspace_id: endpoint.workspace_id, endpoint_id: endpoint.id, since });
  const answer = replay.data;
  const problem = replay.error ? problemOf(replay.error) : null;
  const finish = () => {
    onDone(
      total === 0 ? "Replay: nothing to send." : `Replay queued ${countOf(total, "delivery", "deliveries")}.`,
    );
    onClose();
  };

  if (answer && !replay.isPending) {
    const said =
      total === 0
        ? "Nothing to send: no event since then matches this endpoint's subscription."
        : `Queued ${countOf(total, "delivery", "deliveries")} to ${name}, oldest first. They appear in the log as pending.`;
    return (
      <Dialog
        open
        onClose={finish}
        title={`Replay to ${name}`}
        footer={
          <>
            {answer.next_since !== null ? (
              <Button onClick={() => send(answer.next_since as number)}>
                Go on from {formatLocal(answer.next_since)}
              </Button>
            ) : null}
            <Button variant="primary" data-autofocus onClick={finish}>
              Done
            </Button>
          </>
        }
      >
        <p className="dialog-text">{said}</p>
        {answer.next_since !== null ? (
          <p className="dialog-text">
            More events matched than one replay queues. The next start from {formatLocal(answer.next_since)}.
          </p>
        ) : null}
        {problem ? <ProblemAlert problem={problem} /> : null}
      </Dialog>
    );
  }

  return (
    <Dialog
      open
      onClose={onClose}
      dismissible={!replay.isPending}
      title={`Replay events to ${name}`}
      description="Every event since that time which the endpoint subscribes to now is sent again (or for the first time), oldest first, each resource's in order. Pings are not replayed."
      footer={
        <FormDialogFooter
          formId={formId}
          submitLabel="Replay"
          pending={replay.isPending}
          onCancel={onClose}
        />
      }
    >
      <form
        id={formId}
        noValidate
        onInput={() => setFieldProblem(null)}
        onSubmit={(event) => {
          event.preventDefault();
          const value = String(new FormData(event.currentTarget).get("since") ?? "");
          const since = fromLocalInput(value);
          const problem = sinceProblem(since, Date.now());
          setFieldProblem(problem);
          if (problem === null && since !== null) {
            setTotal(0);
            send(since);
          }
        }}
      >
        <TextField
          label={`Since (${zone})`}
          name="since"
          type="datetime-local"
          required
          defaultValue={initial}
          max={localInputValue(Date.now())}
          hint="Your time zone. At most 7 days back."
          error={fieldProblem}
        />
      </form>
      {problem ? <ProblemAlert problem={problem} /> : null}
    </Dialog>
  );
}
