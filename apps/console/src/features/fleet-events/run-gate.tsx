"use client";

import { hasScope } from "@fleet/contracts/scopes";
import { Callout, Skeleton } from "@fleet/ui";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Link } from "../../components/link.tsx";
import { QueryProblem } from "../../components/query-problem.tsx";
import { useHeldScopes } from "../../lib/access.ts";
import { useTRPC } from "../../lib/trpc.ts";
import { approvalsHref } from "../../lib/urls.ts";
import type { Decision } from "../approvals/answer.ts";
import { GateDetail } from "../approvals/gate-detail.tsx";
import { GateFacts, GateRequest } from "../approvals/gate-facts.tsx";
import type { Draft } from "../approvals/use-answer-form.ts";
import { useGateAnswers } from "../approvals/use-answers.ts";
import "../approvals/gate-detail.css";
import "./run-gate.css";

/** The scope that answers gates; the server also applies the policy's rule (who, how many, not oneself). */
const ANSWER_SCOPE = "approval:resolve";

/**
 * The gate this run waits at, inline on its page, with the inbox's own pieces: the gate in full and, for
 * someone who holds the scope, its answers (approve, approve with changes, deny, extend). Whether an answer
 * counts is the server's rule (the policy may name who answers or refuse the run's own sender): the console
 * offers the answers to anyone holding the scope and says the server's refusal when it comes.
 */
export function RunGate({ workspaceId, gateId }: { workspaceId: string; gateId: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const held = useHeldScopes();
  const me = useQuery(trpc.users.getMe.queryOptions({})).data?.user_id;
  const gate = useQuery(trpc.approvals.get.queryOptions({ workspace_id: workspaceId, gate_id: gateId }));
  const answers = useGateAnswers(workspaceId);
  const [draft, setDraft] = useState<Draft>({ gateId, reason: "", amended: null });
  const current = draft.gateId === gateId ? draft : { gateId, reason: "", amended: null };
  const mayAnswer = held === undefined || hasScope(held, ANSWER_SCOPE);

  const onAnswer = async (decision: Decision) => {
    await answers.answer(gateId, decision, {
      reason: current.reason,
      amendedAction: decision === "approve" ? (current.amended ?? undefined) : undefined,
    });
    // The run's read names its gates and their answers.
    void queryClient.invalidateQueries({ queryKey: trpc.fleetEvents.get.pathKey() });
    void gate.refetch();
  };

  return (
    <section className="run-gate" aria-label="The approval this run waits for" data-gate-id={gateId}>
      {gate.data === undefined ? (
        gate.error ? (
          <QueryProblem query={gate}>
            <Link href={approvalsHref({ workspaceId, status: "pending", gate: gateId })}>
              Open it in the inbox
            </Link>
          </QueryProblem>
        ) : (
          <Skeleton label="Loading the gate…" />
        )
      ) : mayAnswer ? (
        <GateDetail
          gate={gate.data}
          me={me}
          draft={current}
          onDraft={setDraft}
          onAnswer={(decision) => void onAnswer(decision)}
          answering={answers.pending.has(gateId)}
          result={answers.resultOf(gateId)}
        />
      ) : (
        <div className="gate-detail">
          <GateFacts gate={gate.data} me={me} />
          <GateRequest gate={gate.data} />
          <Callout tone="info">
            <p>
              Answering gates needs the scope <code>{ANSWER_SCOPE}</code>: ask a tenant administrator, or
              someone who holds it.
            </p>
          </Callout>
        </div>
      )}
    </section>
  );
}
