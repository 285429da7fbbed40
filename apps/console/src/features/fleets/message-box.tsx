"use client";

import { MESSAGE_LIMIT } from "@fleet/contracts/fleets/values";
import { Button, CheckIcon, ProblemAlert, SendIcon } from "@fleet/ui";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useId, useRef, useState } from "react";
import { useLacking } from "../../lib/access.ts";
import { REQUEST_TIMEOUT_MS, unansweredOf } from "../../lib/api-fetch.ts";
import { forgetOnEdit } from "../../lib/field-errors.ts";
import { type FleetView, messageBlockedReason } from "../../lib/fleet-status.ts";
import { formatCount } from "../../lib/format.ts";
import { answerLost, problemOf, statusOf } from "../../lib/problem.ts";
import { useTRPC } from "../../lib/trpc.ts";
import "../../styles/card-parts.css";
import "./message-box.css";

const utf8 = new TextEncoder();

/** How long a send whose answer was lost waits before it asks again, with the same key. */
const RESEND_DELAY_MS = 2_000;

interface Attempt {
  message: string;
  key: string;
}

/**
 * Sends the fleet a message, stored as a chat event for a runner to pick up. A fleet that takes no messages
 * keeps the box disabled and says why beside it; ⌘/Ctrl+Enter sends.
 *
 * Each message carries its own Idempotency-Key. A send whose answer was lost (a timeout, the network) may
 * have been stored: the box says so, asks once more by itself and then offers a retry, always with the
 * same key, so the API stores the message at most once.
 */
export function MessageBox({ fleet, onSent }: { fleet: FleetView; onSent: (eventId: string) => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const boxId = useId();
  const hintId = useId();
  const reasonId = useId();
  const [text, setText] = useState("");
  const [sent, setSent] = useState<{ eventId: string; afterLoss: boolean } | null>(null);
  // The message whose answer was lost, and its key: sending the same text again reuses the key.
  const attempt = useRef<Attempt | null>(null);
  const lost = useRef(false);
  const send = useMutation(
    trpc.fleets.message.mutationOptions({
      // Only a lost answer is asked again (same input, so the same key); a refusal stays refused.
      retry: (failures, error) => {
        if (!answerLost(error)) return false;
        lost.current = true;
        return failures < 1;
      },
      retryDelay: RESEND_DELAY_MS,
      onSuccess: async ({ event_id }) => {
        setText("");
        setSent({ eventId: event_id, afterLoss: lost.current });
        attempt.current = null;
        lost.current = false;
        onSent(event_id);
        await queryClient.invalidateQueries({ queryKey: trpc.fleetEvents.list.pathKey() });
      },
      onError: (error) => {
        // A refusal stored nothing: the next send of this text may take a new key. A lost answer may hide
        // a stored message: the lists look again.
        if (!answerLost(error)) attempt.current = null;
        else void queryClient.invalidateQueries({ queryKey: trpc.fleetEvents.list.pathKey() });
        // The fleet moved since the page read it: show its status as it is now.
        if (statusOf(error) === 409)
          return queryClient.invalidateQueries({
            queryKey: trpc.fleets.get.queryKey({
              workspace_id: fleet.workspace_id,
              fleet_id: fleet.fleet_id,
            }),
          });
      },
    }),
  );
  // A member who may read the fleet but not send it work (a Viewer, an Approver) is told so, not refused.
  const lacking = useLacking("fleet:write");
  const blocked =
    messageBlockedReason(fleet.status) ??
    (lacking && `Sending a message ${lacking.charAt(0).toLowerCase()}${lacking.slice(1)}`);
  const bytes = utf8.encode(text).length;
  const over = bytes > MESSAGE_LIMIT;
  const empty = text.trim().length === 0;
  const uncertain = send.error !== null && answerLost(send.error);
  const asking = send.isPending && send.failureCount > 0;

  function submit() {
    if (blocked || empty || over || send.isPending) return;
    setSent(null);
    const current = attempt.current;
    // The same text after a lost answer is the same message: it keeps its key.
    const again = current !== null && current.message === text;
    const key = again ? current.key : newKey();
    attempt.current = { message: text, key };
    lost.current = again && uncertain;
    send.mutate({
      workspace_id: fleet.workspace_id,
      fleet_id: fleet.fleet_id,
      message: text,
      idempotency_key: key,
    });
  }

  /** Asks again for the message whose answer was lost, with its key, whatever the box holds now. */
  function retryLost() {
    const current = attempt.current;
    if (current === null || send.isPending) return;
    setSent(null);
    lost.current = true;
    send.mutate({
      workspace_id: fleet.workspace_id,
      fleet_id: fleet.fleet_id,
      message: current.message,
      idempotency_key: current.key,
    });
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
        // A refusal goes once the text is edited; a lost answer stays, with its retry of the message it lost.
        onInput={uncertain ? undefined : forgetOnEdit(send)}
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
            if (send.error && !uncertain) send.reset();
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
      <p className="message-box__sent" role="status" data-state={sendState(sent, asking, uncertain)}>
        {sent ? (
          <>
            <CheckIcon />{" "}
            {sent.afterLoss
              ? // Whether the first try or this one stored it, the API does not say: both answer alike.
                "Sent once: an answer was lost, so the console asked again with the same key; the message is stored once, as "
              : // Stays true as the run goes on: a runner's answer shows in the conversation, not here.
                "Sent as "}
            event <code>{sent.eventId.slice(0, 8)}…</code>
            {sent.afterLoss ? "." : "; a runner's answer appears in the conversation."}
          </>
        ) : asking ? (
          "No answer yet: the message may have been sent. Asking again with the same key, so it is stored once…"
        ) : null}
      </p>
      {send.error ? (
        <div className="message-box__problem">
          {uncertain ? (
            <ProblemAlert
              problem={{
                title: "The message may have been sent",
                detail: `${lostAnswer(unansweredOf(send.error)?.kind === "timeout")} so the console cannot tell whether the message was stored. Trying again sends it with the same key: the API stores it at most once.`,
              }}
            >
              <Button size="sm" variant="primary" onClick={retryLost}>
                Try sending again
              </Button>
            </ProblemAlert>
          ) : (
            <ProblemAlert problem={problemOf(send.error)} />
          )}
        </div>
      ) : null}
    </section>
  );
}

/** Why the answer is missing, as the start of a sentence. */
function lostAnswer(timedOut: boolean): string {
  return timedOut
    ? `The API did not answer within ${REQUEST_TIMEOUT_MS / 1000} seconds,`
    : "The answer did not come back (the connection failed),";
}

/** 128 random bits; getRandomValues, unlike randomUUID, also works on a console served over plain http. */
function newKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return `msg-${Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("")}`;
}

function sendState(sent: { afterLoss: boolean } | null, asking: boolean, uncertain: boolean): string {
  if (sent) return sent.afterLoss ? "sent-after-loss" : "sent";
  if (asking) return "asking-again";
  return uncertain ? "may-have-been-sent" : "idle";
}
