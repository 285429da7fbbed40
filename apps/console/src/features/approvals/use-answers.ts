"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useCallback, useState } from "react";
import { useTRPC, useTRPCClient } from "../../lib/trpc.ts";
import { type AnswerResult, type Decision, settle } from "./answer.ts";

/** At most this many answers in flight at once when several gates are answered together. */
const CONCURRENCY = 4;

export interface AnswerBody {
  reason?: string | undefined;
  amendedAction?: string | undefined;
}

/**
 * Answers gates of one workspace, one or several at once, and remembers what each answer came to (per
 * gate) until the workspace changes: the pane and the bulk summary read it. Every settled batch refreshes
 * the inbox, the gates and the navigation's count.
 */
export function useGateAnswers(workspaceId: string | undefined) {
  const trpc = useTRPC();
  const client = useTRPCClient();
  const queryClient = useQueryClient();
  const [pending, setPending] = useState<ReadonlySet<string>>(new Set());
  const [results, setResults] = useState<{ workspaceId?: string; byGate: Record<string, AnswerResult> }>({
    byGate: {},
  });

  const answerMany = useCallback(
    async (gateIds: string[], decision: Decision, body: AnswerBody = {}): Promise<AnswerResult[]> => {
      if (!workspaceId || gateIds.length === 0) return [];
      setPending((current) => new Set([...current, ...gateIds]));
      const reason = body.reason?.trim() || undefined;
      const one = (gateId: string) =>
        settle(gateId, decision, () =>
          decision === "approve"
            ? client.approvals.approve.mutate({
                workspace_id: workspaceId,
                gate_id: gateId,
                ...(reason ? { reason } : {}),
                ...(body.amendedAction ? { amended_action: body.amendedAction } : {}),
              })
            : client.approvals.deny.mutate({
                workspace_id: workspaceId,
                gate_id: gateId,
                ...(reason ? { reason } : {}),
              }),
        );
      const settled: AnswerResult[] = [];
      const queue = [...gateIds];
      const worker = async () => {
        for (let gateId = queue.shift(); gateId !== undefined; gateId = queue.shift()) {
          settled.push(await one(gateId));
        }
      };
      try {
        await Promise.all(Array.from({ length: Math.min(CONCURRENCY, gateIds.length) }, worker));
      } finally {
        setPending((current) => new Set([...current].filter((id) => !gateIds.includes(id))));
        // Not awaited: the answers are known now, whatever the refreshed lists take.
        void queryClient.invalidateQueries({ queryKey: trpc.approvals.pathKey() });
      }
      setResults((current) => ({
        workspaceId,
        byGate: {
          ...(current.workspaceId === workspaceId ? current.byGate : {}),
          ...Object.fromEntries(settled.map((result) => [result.gateId, result])),
        },
      }));
      // In the order asked, not the order settled.
      return gateIds.flatMap((id) => settled.filter((result) => result.gateId === id));
    },
    [client, queryClient, trpc, workspaceId],
  );

  const byGate = results.workspaceId === workspaceId ? results.byGate : {};
  return {
    answerMany,
    answer: (gateId: string, decision: Decision, body?: AnswerBody) =>
      answerMany([gateId], decision, body).then((all) => all[0]),
    /** The gates whose answers are in flight. */
    pending,
    /** What the last answer to each gate came to. */
    resultOf: (gateId: string | undefined): AnswerResult | undefined =>
      gateId === undefined ? undefined : byGate[gateId],
  };
}

export type GateAnswers = ReturnType<typeof useGateAnswers>;
