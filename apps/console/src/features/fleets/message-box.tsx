"use client";

import { MESSAGE_LIMIT } from "@fleet/contracts";
import { Button, CheckIcon, ProblemAlert, SendIcon } from "@fleet/ui";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useId, useState } from "react";
import { formatCount } from "../../lib/format.ts";
import { problemOf, statusOf } from "../../lib/problem.ts";
import { useTRPC } from "../../lib/trpc.ts";
import { type FleetView, messageBlockedReason } from "./status.ts";

const utf8 = new TextEncoder();

/**
 * Sends the fleet a message, stored as a chat event for a runner to pick up. A fleet that takes no messages
 * keeps the box disabled and says why beside it; ⌘/Ctrl+Enter sends.
 */
export function MessageBox({ fleet, onSent }: { fleet: FleetView; onSent: (eventId: string) => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const boxId = useId();
  const hintId = useId();
  const reasonId = useId();
  const [text, setText] = useState("");
  const [sent, setSent] = useState<string | null>(null);
  const send = useMutation(
    trpc.fleets.message.mutationOptions({
      onSuccess: async ({ event_id }) => {
        setText("");
        setSent(event_id);
        onSent(event_id);
        await queryClient.invalidateQueries({ queryKey: trpc.fleetEvents.list.pathKey() });
      },
      // The fleet moved since the page read it: show its status as it is now.
      onError: (error) =>
        statusOf(error) === 409
          ? queryClient.invalidateQueries({
              queryKey: trpc.fleets.get.queryKey({
                workspace_id: fleet.workspace_id,
                fleet_id: fleet.fleet_id,
              }),
            })
          : undefined,
    }),
  );
  const blocked = messageBlockedReason(fleet.status);
  const bytes = utf8.encode(text).length;
  const over = bytes > MESSAGE_LIMIT;
  const empty = text.trim().length === 0;

  function submit() {
    if (blocked || empty || over || send.isPending) return;
    setSent(null);
    send.mutate({ workspace_id: fleet.workspace_id, fleet_id: fleet.fleet_id, message: text });
  }

  return (
    <section className="card message-box" aria-labelledby={`${boxId}-heading`}>
      <header className="card__header">
        <h2 id={`${boxId}-heading`} className="card__title">
          Message the fleet
        </h2>
      </header>
      <form
        className="message-box__form"
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
      >
        <label htmlFor={boxId} className="ui-visually-hidden">
          Message to {fleet.name}
        </label>
        <textarea
          id={boxId}
          className="ui-textarea message-box__input"
          value={text}
          placeholder={blocked ? "" : `Ask ${fleet.name} something…`}
          disabled={blocked !== null}
          aria-describedby={[blocked ? reasonId : null, hintId].filter(Boolean).join(" ")}
          aria-invalid={over || undefined}
          onChange={(event) => {
            setText(event.target.value);
            if (send.error) send.reset();
          }}
          onKeyDown={(event) => {
            if (event.key === "Enter" && (event.metaKey || event.ctrlKey)) {
              event.preventDefault();
              submit();
            }
          }}
        />
        {blocked ? (
          <p id={reasonId} className="message-box__blocked">
            {blocked}
          </p>
        ) : null}
        <div className="message-box__foot">
          <p id={hintId} className="message-box__hint" data-over={over || undefined}>
            {formatCount(bytes)} of {formatCount(MESSAGE_LIMIT)} bytes · ⌘/Ctrl+Enter sends
          </p>
          <Button
            type="submit"
            variant="primary"
            icon={<SendIcon />}
            pending={send.isPending}
            disabled={blocked !== null || empty || over}
            aria-describedby={blocked ? reasonId : undefined}
          >
            Send message
          </Button>
        </div>
      </form>
      <p className="message-box__sent" role="status">
        {sent ? (
          <>
            <CheckIcon /> Sent: the message waits as event <code>{sent.slice(0, 8)}…</code> for a runner.
          </>
        ) : null}
      </p>
      {send.error ? (
        <div className="message-box__problem">
          <ProblemAlert problem={problemOf(send.error)} />
        </div>
      ) : null}
    </section>
  );
}
