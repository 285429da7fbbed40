import type { approvalGates, Database, Tx } from "@fleet/db";
import { sql } from "@fleet/db";
import { AUTH_CHANNEL } from "../../auth/principal-cache.ts";
import type { SessionSigner } from "../../auth/sessions.ts";
import type { Config } from "../../env.ts";
import type { GateSignal } from "../../runtime/gate-signal.ts";
import type { Metrics } from "../../runtime/metrics.ts";
import type { Resolve } from "../../runtime/public-address.ts";
import type { ScheduleEngine } from "../../runtime/schedule-engine.ts";
import type { StreamHub } from "../../runtime/stream-hub.ts";
import type { Tracing } from "../../runtime/tracing.ts";
import type { Vault } from "../../runtime/vault.ts";
import type { WorkSignal } from "../../runtime/work-signal.ts";

/**
 * What services need, and nothing of HTTP. Every service a procedure or fleetctl calls takes this as its
 * first argument and reads the clock from `now()`. A step that works inside a caller's transaction takes
 * that unit of work first instead (`tx`, or `db: Database | Tx` when it also runs alone) and gets the
 * instant the operation shares as a later `now` argument; a service that another must run inside its own
 * transaction is split into such a step and the ctx-taking service (`insertApiKey` and `createApiKey`).
 */
export interface ServiceContext {
  db: Database;
  config: Config;
  sessions: SessionSigner;
  now: () => number;
  /** Seals and opens workspace secrets. */
  vault: Vault;
  /**
   * Drops this instance's cached principals tagged `tag`, then resolves once this instance has heard the
   * change's NOTIFY delivered back (bounded; `PrincipalCache.settled`). Called after the change commits,
   * and awaited before answering, so the caller's next request, on any instance, finds the change heard.
   */
  principalsChanged: (tag: string) => Promise<void>;
  /** Wakes runners waiting for work when this instance stores some. */
  work: WorkSignal;
  /** Wakes runners waiting on an approval gate's answer. */
  gates: GateSignal;
  /** The live tail: frames published here reach every instance's streams (after the change commits). */
  streams: StreamHub;
  /** The external scheduler; null in processes that run none (fleetctl, seeding). */
  scheduler: ScheduleEngine | null;
  /** The Prometheus metrics, when served (docs/decisions/operations.md, "Metrics and traces"); absent: nothing counts. */
  metrics?: Metrics | null;
  /** The run traces, when an OTLP endpoint is configured; absent: no spans, and no SDK loaded. */
  tracing?: Tracing | null;
  /** The chat outbox's deliverer on this instance; absent (fleetctl): the periodic pass delivers. */
  chat?: { kick(): void } | null;
  /** The webhook outbox's deliverer on this instance; absent (fleetctl): the periodic pass delivers. */
  webhookOutbox?: { kick(): void } | null;
  /** Port: a gate's chat message (the chat connector), told by the frames a gate's change publishes. */
  gateChat: GateChat;
  /**
   * Port: what an attempt to the workspace's notice endpoint sends (today's notice bodies, signed with the
   * notice secret), implemented by `webhooks/notice-format.ts`: the outbox's deliverer forms the request.
   */
  notices: NoticeFormat;
  /**
   * The resolver the model gateway checks a tenant's base_url with at each call (its connection then goes
   * only to the addresses checked); absent: the system's (`systemResolve`). Tests inject one.
   */
  resolve?: Resolve;
}

/** An approval gate's row, as approvals keep it and frames and the chat port read it. */
export type GateRow = typeof approvalGates.$inferSelect;

/**
 * The chat connector as shared steps reach it: frames (`shared/frames.ts`) tell it of gates without
 * importing `connectors/`, which implements it (`connectors/gates.ts`, `chatGates`). Both are called after
 * the gate's change committed, best effort, as the live tail is.
 */
export interface GateChat {
  /** A gate opened: its message, with Approve and Deny buttons, for the channel routed to its fleet. */
  opened(ctx: ServiceContext, gate: GateRow): Promise<void>;
  /** Gates were answered, wherever: each one's chat message is updated with the outcome. */
  resolved(ctx: ServiceContext, gates: readonly GateRow[]): Promise<void>;
}

/** One outbox event, as an attempt to the notice endpoint has it. */
export interface NoticeEvent {
  workspaceId: string;
  eventId: string;
  type: string;
  createdAt: number;
  data: Record<string, unknown>;
}

/** The request an attempt sends: its body and its headers (signed), or why there is none to send. */
export type NoticeRequest = { body: string; headers: Record<string, string> } | { error: string };

/** The notice endpoint's format: the request for an event, signed as at `now`. */
export interface NoticeFormat {
  request(ctx: ServiceContext, event: NoticeEvent, now: number): Promise<NoticeRequest>;
}

/**
 * Tells every instance that principals tagged `tag` changed. Sent inside the changing transaction, so
 * PostgreSQL delivers it at commit and never for a rolled-back change.
 */
export async function notifyPrincipalChange(tx: Database | Tx, tag: string): Promise<void> {
  await tx.execute(sql`select pg_notify(${AUTH_CHANNEL}, ${tag})`);
}
