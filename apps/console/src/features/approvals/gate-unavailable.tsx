"use client";

import { Callout, formatUtc, ProblemAlert } from "@fleet/ui";
import { shortId } from "../../components/entity-name.tsx";
import { Link } from "../../components/link.tsx";
import { QueryProblem, type QueryProblemProps } from "../../components/query-problem.tsx";
import { usePrincipalWords } from "../../lib/names.ts";
import { statusOf } from "../../lib/problem.ts";
import type { ApiError } from "../../lib/trpc.ts";
import { useIdWorkspace } from "../ids/use-id-workspace.ts";
import { type Gate, standingSentence } from "./answer.ts";

/** Said wherever the inbox cannot open the gate asked for: nothing was opened in its place. */
const NOTHING_ELSE =
  "No other gate was opened in its place, so the a and d keys answer nothing until you open one.";

/**
 * The gate the address asked for, when this inbox cannot open it: it is in another of the person's
 * workspaces (with a link there), or the API knows no such gate the person may read (unknown, deleted,
 * another account's). Any other failure is shown as the API's problem.
 */
export function GateUnavailable({
  gateId,
  workspaceId,
  detail,
  hrefIn,
}: {
  gateId: string;
  /** The workspace the inbox shows. */
  workspaceId: string;
  detail: QueryProblemProps["query"];
  /** The inbox of another workspace, opened at this gate. */
  hrefIn: (workspaceId: string) => string;
}) {
  const absent = detail.error !== null && statusOf(detail.error as ApiError) === 404;
  const owner = useIdWorkspace(absent ? gateId : undefined, "gate");
  if (!absent) return <QueryProblem query={detail} />;
  if (owner.finding) return <p className="muted">Looking for gate {shortId(gateId)}…</p>;
  if (owner.workspaceId !== undefined && owner.workspaceId !== workspaceId)
    return (
      <ProblemAlert
        problem={{
          title: "This gate is in another workspace",
          detail: `Gate ${shortId(gateId)} belongs to another of your workspaces, not this one. ${NOTHING_ELSE}`,
        }}
      >
        <Link className="ui-button ui-button--secondary ui-button--sm" href={hrefIn(owner.workspaceId)}>
          Open it in its workspace
        </Link>
      </ProblemAlert>
    );
  return (
    <ProblemAlert
      problem={{
        title: "Gate not found",
        detail: `No gate ${shortId(gateId)} that you can open: it may have been deleted with its workspace, belong to another account, or the link may be wrong. ${NOTHING_ELSE}`,
      }}
    />
  );
}

/** A gate the address asked for that is no longer waiting: whose answer stands, in place of the form. */
export function GateAnswered({ gate, me }: { gate: Gate; me: string | undefined }) {
  const words = usePrincipalWords();
  if (gate.status === "pending" || gate.resolved_by === null || gate.resolved_at === null) return null;
  const standing = { outcome: gate.status, resolvedBy: gate.resolved_by, resolvedAt: gate.resolved_at };
  return (
    <div role="status" className="gate-notice" data-gate-answered={gate.status}>
      <Callout tone="info">
        <p>
          <strong>
            No longer waiting. {standingSentence(standing, me, formatUtc(gate.resolved_at), words)}.
          </strong>{" "}
          There is nothing to answer here; the a and d keys do nothing.
        </p>
      </Callout>
    </div>
  );
}
