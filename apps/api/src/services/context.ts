import type { Database, Tx } from "@fleet/db";
import { sql } from "@fleet/db";
import { AUTH_CHANNEL } from "../auth/principal-cache.ts";
import type { SessionSigner } from "../auth/sessions.ts";
import type { Config } from "../env.ts";
import type { GateSignal } from "../runtime/gate-signal.ts";
import type { Metrics } from "../runtime/metrics.ts";
import type { ScheduleEngine } from "../runtime/schedule-engine.ts";
import type { StreamHub } from "../runtime/stream-hub.ts";
import type { Tracing } from "../runtime/tracing.ts";
import type { WorkSignal } from "../runtime/work-signal.ts";
import type { ChatOutbox } from "./connectors/delivery.ts";
import type { Vault } from "./secrets/vault.ts";

/**
 * What services need, and nothing of HTTP. Every service a procedure or fleetctl calls takes this as its
 * first argument and reads the clock from `now()`. A step that works inside a caller's transaction takes
 * that unit of work first instead (`tx`, or `db: Database | Tx` when it also runs alone) and gets the
 * instant the operation shares as a later `now` argument; a service that another must run inside its own
 * transaction is split into such a step and the ctx-taking service (`insertApiKey` and `mintApiKey`).
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
  /** The Prometheus metrics, when served (docs/decisions.md, "Metrics and traces"); absent: nothing counts. */
  metrics?: Metrics | null;
  /** The run traces, when an OTLP endpoint is configured; absent: no spans, and no SDK loaded. */
  tracing?: Tracing | null;
  /** The chat outbox's deliverer on this instance; absent (fleetctl): the periodic pass delivers. */
  chat?: ChatOutbox | null;
}

/**
 * Tells every instance that principals tagged `tag` changed. Sent inside the changing transaction, so
 * PostgreSQL delivers it at commit and never for a rolled-back change.
 */
export async function notifyPrincipalChange(tx: Database | Tx, tag: string): Promise<void> {
  await tx.execute(sql`select pg_notify(${AUTH_CHANNEL}, ${tag})`);
}

/**
 * The first PostgreSQL error in `error`'s cause chain whose SQLSTATE matches `codes`, wherever the driver
 * puts it (postgres.js and PGlite wrap differently; drizzle wraps both), with the constraint it names.
 */
export function databaseError(
  error: unknown,
  codes: RegExp,
): { code: string; constraint: string | null } | null {
  for (
    let cause: unknown = error, depth = 0;
    cause !== null && typeof cause === "object" && depth < 5;
    depth++
  ) {
    const record = cause as {
      code?: unknown;
      constraint?: string;
      constraint_name?: string;
      cause?: unknown;
    };
    if (typeof record.code === "string" && codes.test(record.code))
      return { code: record.code, constraint: record.constraint ?? record.constraint_name ?? null };
    cause = record.cause;
  }
  return null;
}

/** PostgreSQL's unique-violation code, wherever the driver puts it. */
export function uniqueViolation(error: unknown, constraint: string): boolean {
  const found = databaseError(error, /^23505$/);
  return found !== null && found.constraint === constraint;
}
