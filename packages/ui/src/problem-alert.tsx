import type { ProblemBody } from "@fleet/contracts";
import { type ReactNode, useId } from "react";
import { CopyButton } from "./copy.tsx";
import { AlertIcon } from "./icons.tsx";

/**
 * What the console can show of a refusal: the API's problem document, or a console-made one (the API
 * unreachable) that has no request id.
 */
export type ProblemView = Pick<ProblemBody, "title" | "detail"> &
  Partial<Pick<ProblemBody, "error_code" | "request_id" | "docs_uri">>;

export interface ProblemAlertProps {
  problem: ProblemView;
  /** What the problem's extra members say, rendered under the detail (the missing credentials, by name). */
  details?: ReactNode;
  /** Follow-up actions (Retry, Sign in again). */
  children?: ReactNode;
}

/** A refusal as the person needs it: what went wrong, why, and the request id support asks for. */
export function ProblemAlert({ problem, details, children }: ProblemAlertProps) {
  const titleId = useId();
  return (
    // Named by its title, so the alert can be told apart from other live regions.
    <div className="ui-problem" role="alert" aria-labelledby={titleId} data-error-code={problem.error_code}>
      <span className="ui-problem__icon">
        <AlertIcon />
      </span>
      <div className="ui-problem__content">
        <p id={titleId} className="ui-problem__title">
          {problem.title}
        </p>
        <p className="ui-problem__detail">{problem.detail}</p>
        {details ? <div className="ui-problem__details">{details}</div> : null}
        <dl className="ui-problem__meta">
          {problem.error_code ? (
            <div>
              <dt>Code</dt>
              <dd>
                {problem.docs_uri ? (
                  <a href={problem.docs_uri} target="_blank" rel="noreferrer">
                    {problem.error_code}
                  </a>
                ) : (
                  problem.error_code
                )}
              </dd>
            </div>
          ) : null}
          {problem.request_id ? (
            <div>
              <dt>Request ID</dt>
              <dd>
                <code>{problem.request_id}</code>
                <CopyButton value={problem.request_id} label="Copy request ID" />
              </dd>
            </div>
          ) : null}
        </dl>
        {children ? <div className="ui-problem__actions">{children}</div> : null}
      </div>
    </div>
  );
}
