"use client";

import { Callout, formatUtc, ProblemAlert } from "@fleet/ui";
import { usePrincipalWords } from "../../lib/names.ts";
import { type AnswerResult, standingSentence } from "./answer.ts";
import "./answer-notice.css";

/** What this console's last answer to the gate came to: done, lost to another answer, or failed. */
export function AnswerNotice({ result, me }: { result: AnswerResult | undefined; me: string | undefined }) {
  const words = usePrincipalWords();
  if (result === undefined) return null;
  if (result.kind === "failed") return <ProblemAlert problem={result.problem} />;
  if (result.kind === "lost") {
    return (
      <div role="status" className="gate-notice">
        <Callout tone="info">
          <p>
            <strong>
              {standingSentence(result.standing, me, formatUtc(result.standing.resolvedAt), words)}.
            </strong>{" "}
            The first answer stands; yours was not recorded.
          </p>
        </Callout>
      </div>
    );
  }
  const { answer } = result;
  const waiting = answer.required_approvals - answer.approvals.filter((a) => a.counted).length;
  return (
    <p role="status" className="gate-notice gate-notice--done">
      {result.decision === "deny"
        ? "You denied this gate."
        : answer.outcome === "pending"
          ? `Your approval counts: ${answer.approvals.filter((a) => a.counted).length} of ${answer.required_approvals}. The gate waits for ${waiting} more.`
          : "You approved this gate."}
    </p>
  );
}
