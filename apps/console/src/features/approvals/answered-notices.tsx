"use client";

import { Button } from "@fleet/ui";
import { whoLabel } from "./answer.ts";
import type { AnsweredNotice } from "./use-gate-stream.ts";
import { Who } from "./who.tsx";
import "./answered-notices.css";

const outcomeWords: Record<string, string> = {
  approved: "Approved",
  denied: "Denied",
  timed_out: "Timed out",
  expired: "Expired",
  auto_killed: "Closed",
};

/**
 * Gates answered while the inbox was open, each saying who answered: the row itself has left the list. An
 * answer given from this page is left out: the page already says what it did, and would otherwise
 * report it again as if someone else had, under a raw user id.
 */
export function AnsweredNotices({
  notices,
  me,
  answeredHere,
  onDismiss,
}: {
  notices: AnsweredNotice[];
  me: string | undefined;
  /** Whether this page sent the gate's answer. */
  answeredHere: (gateId: string) => boolean;
  onDismiss: (gateId: string) => void;
}) {
  const shown = notices.filter(
    (notice) => !(answeredHere(notice.gateId) && whoLabel(notice.resolvedBy, me) === "you"),
  );
  return (
    <div role="status">
      {shown.length > 0 ? (
        <ul className="answered-notices" aria-label="Gates answered just now">
          {shown.map((notice) => (
            <li key={notice.gateId} className="answered-notice" data-outcome={notice.outcome}>
              <span>
                {outcomeWords[notice.outcome] ?? notice.outcome}
                {notice.name ? `: ${notice.name}` : ` gate ${notice.gateId.slice(0, 8)}…`}, by{" "}
                <Who principal={notice.resolvedBy} me={me} />.
              </span>
              <Button size="sm" variant="ghost" onClick={() => onDismiss(notice.gateId)}>
                Dismiss<span className="ui-visually-hidden"> the note on gate {notice.gateId}</span>
              </Button>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
