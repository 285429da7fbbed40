"use client";

import { Button } from "@fleet/ui";
import type { AnsweredNotice } from "./use-gate-stream.ts";

const outcomeWords: Record<string, string> = {
  approved: "Approved",
  denied: "Denied",
  timed_out: "Timed out",
  expired: "Expired",
};

/** Gates answered while the inbox was open, each saying who answered: the row itself has left the list. */
export function AnsweredNotices({
  notices,
  onDismiss,
}: {
  notices: AnsweredNotice[];
  onDismiss: (gateId: string) => void;
}) {
  return (
    <div role="status">
      {notices.length > 0 ? (
        <ul className="answered-notices" aria-label="Gates answered just now">
          {notices.map((notice) => (
            <li key={notice.gateId} className="answered-notice" data-outcome={notice.outcome}>
              <span>
                {outcomeWords[notice.outcome] ?? notice.outcome}
                {notice.name ? `: ${notice.name}` : ` gate ${notice.gateId.slice(0, 8)}…`}, by{" "}
                <code>{notice.resolvedBy}</code>.
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
