"use client";

import { LiveStatus } from "../../components/live-status.tsx";
import { ListLoading, QueryProblem } from "../../components/query-problem.tsx";
import type { FleetView } from "../../lib/fleet-status.ts";
import type { LiveRun } from "./runs.ts";
import { TurnView } from "./turn.tsx";
import { useConversation } from "./use-conversation.ts";
import type { EventStream } from "./use-event-stream.ts";
import "../../styles/card-parts.css";
import "./conversation.css";

/**
 * The fleet's conversation: each request with its answer inline, and a run in flight unfolding as its
 * frames arrive (lease, tool calls with their durations, the answer as it is written, the outcome). The
 * events list and the run frames are merged by event id; without a stream the list polls.
 */
export function Conversation({
  fleet,
  runs,
  stream,
  inspectHref,
}: {
  fleet: FleetView;
  runs: ReadonlyMap<string, LiveRun>;
  /** The fleet's stream: while it is live it says when the list is stale, so the list need not poll. */
  stream: EventStream;
  inspectHref: (eventId: string) => string;
}) {
  const { list, live, turns, scroller } = useConversation(fleet, runs, stream);

  return (
    <section className="card conversation" aria-labelledby="conversation-heading">
      <header className="card__header conversation__header">
        <h2 id="conversation-heading" className="card__title">
          Conversation
        </h2>
        <LiveStatus
          state={live}
          onReconnect={() => (stream.state === "unavailable" ? list.refetch() : stream.reconnect())}
        />
      </header>
      {list.error && list.data === undefined ? (
        <div className="card__body">
          <QueryProblem query={list} retry="always" />
        </div>
      ) : list.data === undefined && turns.length === 0 ? (
        <ListLoading>Loading the conversation…</ListLoading>
      ) : turns.length === 0 ? (
        <div className="empty-state empty-state--compact">
          <p className="empty-state__title">No messages yet</p>
          <p className="empty-state__text">
            Send the fleet a message: its answer appears here as it is written.
          </p>
        </div>
      ) : (
        <div
          ref={scroller}
          className="conversation__turns"
          role="log"
          aria-live="polite"
          aria-label={`Conversation with ${fleet.name}`}
        >
          <ol className="conversation__list">
            {turns.map((turn) => (
              <TurnView key={turn.eventId} turn={turn} fleet={fleet} inspectHref={inspectHref} />
            ))}
          </ol>
        </div>
      )}
    </section>
  );
}
