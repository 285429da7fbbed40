import type { ProblemView } from "@fleet/ui";
import { TRPCClientError } from "@trpc/client";
import { problemOf } from "../../lib/problem.ts";
import type { ApiError, RouterOutputs } from "../../lib/trpc.ts";

export type Gate = RouterOutputs["approvals"]["get"];
export type Decision = "approve" | "deny";
type Answer = RouterOutputs["approvals"]["approve"];

/** The codes a late answer is refused with; the body carries the answer that stands. */
const LATE_CODES = new Set(["UZ-APPROVAL-003", "UZ-APPROVAL-005", "UZ-APPROVAL-006"]);

/** What one answer came to: it decided the gate, another answer (or the clock) had, or it failed. */
export type AnswerResult =
  | { gateId: string; kind: "answered"; decision: Decision; answer: Answer }
  | { gateId: string; kind: "lost"; standing: Standing }
  | { gateId: string; kind: "failed"; problem: ProblemView };

/** The answer that stands on a gate someone (or something) answered first. */
export interface Standing {
  outcome: string;
  resolvedBy: string;
  resolvedAt: number;
}

/** A 409's standing answer, when the refusal is a lost race; null for any other failure. */
export function standingOf(error: unknown): Standing | null {
  if (!(error instanceof TRPCClientError)) return null;
  const problem = (error as ApiError).data?.problem as Record<string, unknown> | undefined;
  if (!problem || !LATE_CODES.has(String(problem.error_code))) return null;
  const { outcome, resolved_by, resolved_at } = problem;
  if (typeof outcome !== "string" || typeof resolved_by !== "string" || typeof resolved_at !== "number")
    return null;
  return { outcome, resolvedBy: resolved_by, resolvedAt: resolved_at };
}

/** Turns a call's settlement into a result the inbox shows per gate; a lost race is not an error. */
export async function settle(
  gateId: string,
  decision: Decision,
  call: () => Promise<Answer>,
): Promise<AnswerResult> {
  try {
    return { gateId, kind: "answered", decision, answer: await call() };
  } catch (error) {
    const standing = standingOf(error);
    if (standing) return { gateId, kind: "lost", standing };
    if (error instanceof TRPCClientError) return { gateId, kind: "failed", problem: problemOf(error) };
    throw error;
  }
}

const outcomeWords: Record<string, string> = {
  approved: "approved",
  denied: "denied",
  timed_out: "timed out",
  auto_killed: "closed",
};

/**
 * `resolved_by` as a person reads it: "you" for the caller, a person or key by name when `words` knows
 * them (lib/names.ts), the system's reasons spelled out.
 */
export function whoLabel(
  resolvedBy: string,
  me: string | undefined,
  words?: (principal: string) => string | undefined,
): string {
  if (me && (resolvedBy === `user:${me}` || resolvedBy === me)) return "you";
  const named = words?.(resolvedBy);
  if (named !== undefined) return named;
  if (resolvedBy === "system:timeout") return "the timeout";
  const fleet = /^system:fleet_(stopped|killed|deleted)$/.exec(resolvedBy);
  if (fleet) return `its fleet being ${fleet[1]}`;
  return resolvedBy;
}

/**
 * "Already approved by user:… at 2026-01-01 10:00:00 UTC": what a lost race says, in place of an error. The
 * time is passed in formatted so the caller picks the zone.
 */
export function standingSentence(
  standing: Standing,
  me: string | undefined,
  at: string,
  words?: (principal: string) => string | undefined,
): string {
  const outcome = outcomeWords[standing.outcome] ?? standing.outcome;
  if (standing.outcome === "timed_out") return `Already timed out at ${at}`;
  if (standing.outcome === "auto_killed")
    return `Already closed by ${whoLabel(standing.resolvedBy, me, words)} at ${at}`;
  return `Already ${outcome} by ${whoLabel(standing.resolvedBy, me, words)} at ${at}`;
}

export function outcomeWord(status: string): string {
  return outcomeWords[status] ?? status;
}
