import { Counter, collectDefaultMetrics, Gauge, Registry } from "prom-client";
import { type ModelCall, ModelCallSeries } from "./model-call-metrics.ts";
import { RequestSeries } from "./request-series.ts";

const LEASE_OUTCOMES = [
  "acquired",
  "reclaimed",
  "renewed",
  "released",
  "succeeded",
  "failed",
  "expired",
] as const;
/** How a lease ended or moved on (docs/decisions/operations.md, "Metrics and traces"). */
export type LeaseOutcome = (typeof LEASE_OUTCOMES)[number];

/**
 * Which limit refused a request with 429: a credential's bucket, a workspace's, a client address's (calls
 * with no credential), or the in-flight ceiling.
 */
export type RefusalKind = "credential" | "workspace" | "address" | "in_flight";

/** What the live-tail streams report at each scrape: open streams now, frames since the process began. */
export interface StreamCounts {
  open: number;
  published: number;
  dropped: number;
}

/** The database pool as a scrape sees it: its size, the calls holding it, the calls waiting for it. */
export interface PoolUse {
  size: number;
  active: number | null;
  waiting: number | null;
}

/** Pending gates of every tenant, counted at scrape time. */
export type PendingGates = () => Promise<number>;

/** How long a count of pending gates is reused, so scrapes from several Prometheus servers share one query. */
export const PENDING_GATES_CACHE_MS = 5_000;

/**
 * The instance's Prometheus metrics, in a registry of its own (several apps share a test process). Built
 * only when metrics are served (`FLEET_METRICS_TOKEN` or `FLEET_METRICS_ADDRESS`); without them nothing
 * counts, and the request path pays nothing. Labels never carry a tenant's id, key or path parameter: the
 * route label is the route's pattern, and the other labels are closed sets.
 */
export class Metrics {
  readonly registry = new Registry();
  readonly #requests = new RequestSeries();
  readonly #leases: Counter<"outcome">;
  readonly #syncFailures: Counter;
  readonly #refusals: Counter<"bucket">;
  readonly #modelCalls: ModelCallSeries;
  #streams: (() => StreamCounts) | null = null;

  constructor() {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry });
    this.#requests.register(this.registry);
    this.#leases = new Counter({
      name: "fleet_leases_total",
      help: "Lease transitions: acquired, reclaimed, renewed, released, succeeded, failed, expired.",
      labelNames: ["outcome"],
      registers,
    });
    this.#syncFailures = new Counter({
      name: "fleet_scheduler_sync_failures_total",
      help: "Schedule pushes to the scheduler that failed (the reconciler retries them).",
      registers,
    });
    this.#refusals = new Counter({
      name: "fleet_rate_limit_refusals_total",
      help: "Requests refused with 429, by the limit that refused them: credential, workspace, in_flight.",
      labelNames: ["bucket"],
      registers,
    });
    this.#modelCalls = new ModelCallSeries(this.registry);
    // Every series of a closed set exists from the start, so a rate() over a fresh instance reads 0.
    for (const bucket of ["credential", "workspace", "in_flight"]) this.#refusals.inc({ bucket }, 0);
    for (const outcome of LEASE_OUTCOMES) this.#leases.inc({ outcome }, 0);
  }

  /** One answered request. `route` must be a pattern or a fixed name, never a raw path. */
  request(method: string, route: string, status: number, seconds: number): void {
    this.#requests.observe(method, route, status, seconds);
  }

  lease(outcome: LeaseOutcome, count = 1): void {
    this.#leases.inc({ outcome }, count);
  }

  /** One gateway call that reached its provider (model-call-metrics.ts). */
  modelCall(call: ModelCall): void {
    this.#modelCalls.observe(call);
  }

  schedulerSyncFailed(): void {
    this.#syncFailures.inc();
  }

  refused(bucket: RefusalKind): void {
    this.#refusals.inc({ bucket });
  }

  /**
   * Registers the live-tail streams' counts, read at each scrape: `fleet_stream_open` (a gauge),
   * `fleet_stream_frames_published_total` and `fleet_stream_frames_dropped_total` (counters the provider
   * keeps, reported as they stand). A later call replaces the provider.
   */
  observeStreams(provider: () => StreamCounts): void {
    const first = this.#streams === null;
    this.#streams = provider;
    if (!first) return;
    const read = () => this.#streams!();
    const registers = [this.registry];
    new Gauge({
      name: "fleet_stream_open",
      help: "Live-tail streams open on this instance.",
      registers,
      collect() {
        this.set(read().open);
      },
    });
    new Counter({
      name: "fleet_stream_frames_published_total",
      help: "Frames published to the live-tail streams.",
      registers,
      collect() {
        this.reset();
        this.inc(read().published);
      },
    });
    new Counter({
      name: "fleet_stream_frames_dropped_total",
      help: "Frames dropped for slow readers.",
      registers,
      collect() {
        this.reset();
        this.inc(read().dropped);
      },
    });
  }

  /** The database pool's use, read at each scrape. */
  observePool(read: () => PoolUse): void {
    const registers = [this.registry];
    new Gauge({
      name: "fleet_db_pool_size",
      help: "Connections the database pool may hold (1 on the embedded database).",
      registers,
      collect() {
        this.set(read().size);
      },
    });
    // A driver that says nothing of its queue (PGlite) gets no gauges for it, rather than a constant 0.
    if (read().active === null) return;
    new Gauge({
      name: "fleet_db_pool_active",
      help: "Database calls (queries or whole transactions) holding a pooled connection.",
      registers,
      collect() {
        this.set(read().active ?? 0);
      },
    });
    new Gauge({
      name: "fleet_db_pool_waiting",
      help: "Database calls waiting for a pooled connection.",
      registers,
      collect() {
        this.set(read().waiting ?? 0);
      },
    });
  }

  /**
   * Pending approval gates (every tenant's), counted by `count` at scrape time and reused for
   * PENDING_GATES_CACHE_MS. No label: a gate's kind is named by the runner that opens it, so it is
   * neither a closed set nor free of what tenants write. A count that fails leaves the last value.
   */
  observePendingGates(count: PendingGates, now: () => number): void {
    let cached: { at: number; pending: Promise<number> } | null = null;
    new Gauge({
      name: "fleet_gates_pending",
      help: "Approval gates waiting for an answer (counted at most every 5 s).",
      registers: [this.registry],
      async collect() {
        const at = now();
        if (cached === null || at - cached.at >= PENDING_GATES_CACHE_MS) {
          const pending = count();
          cached = { at, pending };
          pending.catch(() => {
            if (cached?.pending === pending) cached = null;
          });
        }
        try {
          this.set(await cached.pending);
        } catch {
          // The last count stands; the scrape still answers.
        }
      },
    });
  }

  /** The text exposition of every metric. */
  scrape(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}
