import { type ActivityFrame, Problem } from "@fleet/contracts";
import { and, eq, fleetEvents, fleetMemories, fleets, leases, sql } from "@fleet/db";
import { newId } from "../../ids.ts";
import type { ServiceContext } from "../context.ts";
import { requireCurrentLease } from "./leasing.ts";
import { recordRunnerEvent } from "./runners.ts";

export interface ReportInput {
  lease_id: string;
  event_id: string;
  fencing_token: number;
  outcome: "processed" | "fleet_error";
  response_text?: string;
  failure_label?: string;
  failure_detail?: string;
  tokens?: number;
  wall_ms?: number;
  cost_nanos?: number;
  checkpoint_id?: string;
  provider?: string;
  model?: string;
  posture?: string;
  input_tokens?: number;
  output_tokens?: number;
  cached_tokens?: number;
}

/** Ends the lease and writes the run's answer onto its event, in one fenced transaction. */
export async function reportLease(ctx: ServiceContext, runnerId: string, input: ReportInput) {
  const now = ctx.now();
  return ctx.db.transaction(async (tx) => {
    const lease = await requireCurrentLease(tx, runnerId, input.lease_id, input.fencing_token);
    if (lease.eventId !== input.event_id) {
      throw new Problem("UZ-REQ-001", { detail: "event_id is not the event this lease runs." });
    }
    const succeeded = input.outcome === "processed";
    await tx
      .update(fleetEvents)
      .set({
        status: input.outcome,
        responseText: input.response_text ?? null,
        failureLabel: succeeded ? null : (input.failure_label ?? "fleet_error"),
        failureDetail: succeeded ? null : (input.failure_detail ?? null),
        tokens: input.tokens ?? null,
        wallMs: input.wall_ms ?? null,
        costNanos: input.cost_nanos ?? null,
        checkpointId: input.checkpoint_id ?? null,
        updatedAt: now,
      })
      .where(eq(fleetEvents.id, lease.eventId));
    await tx
      .update(leases)
      .set({
        status: succeeded ? "succeeded" : "failed",
        endedAt: now,
        failureLabel: succeeded ? null : (input.failure_label ?? "fleet_error"),
        failureDetail: succeeded ? null : (input.failure_detail ?? null),
        provider: input.provider ?? null,
        model: input.model ?? null,
        posture: input.posture ?? null,
        inputTokens: input.input_tokens ?? null,
        outputTokens: input.output_tokens ?? null,
        cachedTokens: input.cached_tokens ?? null,
      })
      .where(eq(leases.id, lease.id));
    await tx
      .update(fleets)
      .set({
        eventsProcessed: sql`${fleets.eventsProcessed} + 1`,
        budgetUsedNanos: sql`${fleets.budgetUsedNanos} + ${input.cost_nanos ?? 0}`,
      })
      .where(eq(fleets.id, lease.fleetId));
    await recordRunnerEvent(tx, runnerId, "lease_released", now, {
      lease_id: lease.id,
      outcome: succeeded ? "succeeded" : "failed",
    });
    return {
      lease_id: lease.id,
      event_id: lease.eventId,
      outcome: succeeded ? ("succeeded" as const) : ("failed" as const),
    };
  });
}

/** Hands the frames to the live tail; only the lease's current holder may publish. */
export async function publishActivity(
  ctx: ServiceContext,
  runnerId: string,
  input: { lease_id: string; frames: ActivityFrame[] },
) {
  const lease = await ctx.db.transaction((tx) => requireCurrentLease(tx, runnerId, input.lease_id, null));
  ctx.activity.publish(
    { workspaceId: lease.workspaceId, fleetId: lease.fleetId, eventId: lease.eventId, leaseId: lease.id },
    input.frames,
    ctx.now(),
  );
  return { ok: true as const };
}

export async function writeMemory(
  ctx: ServiceContext,
  runnerId: string,
  input: { lease_id: string; key: string; fencing_token: number; category: string; content: string },
) {
  const now = ctx.now();
  return ctx.db.transaction(async (tx) => {
    const lease = await requireCurrentLease(tx, runnerId, input.lease_id, input.fencing_token);
    const [row] = await tx
      .insert(fleetMemories)
      .values({
        id: newId(now),
        fleetId: lease.fleetId,
        key: input.key,
        category: input.category,
        content: input.content,
        createdAt: now,
        updatedAt: now,
      })
      .onConflictDoUpdate({
        target: [fleetMemories.fleetId, fleetMemories.key],
        set: { category: input.category, content: input.content, updatedAt: now },
      })
      .returning();
    return {
      key: row!.key,
      content: row!.content,
      category: row!.category,
      created_at: row!.createdAt,
      updated_at: row!.updatedAt,
    };
  });
}

export async function deleteMemory(
  ctx: ServiceContext,
  runnerId: string,
  input: { lease_id: string; key: string; fencing_token: number },
): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const lease = await requireCurrentLease(tx, runnerId, input.lease_id, input.fencing_token);
    await tx
      .delete(fleetMemories)
      .where(and(eq(fleetMemories.fleetId, lease.fleetId), eq(fleetMemories.key, input.key)));
  });
}
