import type { DatabaseHandle } from "@fleet/db";
import { fromPglite, type JobWithMetadata, PgBoss } from "pg-boss";

/** The pg-boss queue every fleet schedule fires into; each schedule is registered under its id as key. */
export const FIRE_QUEUE = "fleet-schedule-fire";

/** What a fire carries: which schedule, and the version of it that was registered. */
export interface FireData {
  schedule_id: string;
  generation: number;
  /** When this version was registered: an instant before it is not this version's to fire. */
  registered_at: number;
}

export interface RegisteredSchedule {
  key: string;
  cron: string;
  timezone: string;
  data: FireData;
}

export interface EngineOptions {
  /** PostgreSQL URL of the scheduler's own store when it is not the service's database. */
  url?: string;
  /** The longest a push may hold a request before it is recorded as failed. */
  deadlineMs: number;
  /**
   * `sentAt`: when pg-boss made this fire due (its job's creation, or the instant a job sent ahead was
   * held for), the same on every delivery of it.
   */
  onFire: (data: FireData, sentAt: number) => Promise<void>;
  onError: (error: unknown) => void;
  /** Housekeeping passes run as pg-boss jobs, one at a time across every instance. */
  periodic?: PeriodicJob[];
}

/**
 * A pass every `everyMs`. pg-boss's cron sends at most one job a minute, too coarse for sweeping, so each
 * instance offers a job every `everyMs` to an `exclusive` queue, which holds at most one queued or active
 * job: the offers of all instances but one are refused, and one pass runs at a time, on one instance.
 */
export interface PeriodicJob {
  queue: string;
  everyMs: number;
  run: () => Promise<void>;
}

export class SchedulerUnavailable extends Error {}

/**
 * How long after an instant sent ahead its wake-up comes: pg-boss fetches jobs whose `start_after` is
 * before the database's clock, which may be a little behind ours.
 */
const WAKE_AFTER_MS = 5;
/** Instants further ahead than this get no wake-up (the poll finds them): a timer holds at most ~24.8 days. */
const WAKE_AHEAD_MAX_MS = 24 * 3_600_000;

/** pg-boss 12's internal queue through which cron passes forward due instants. */
const SEND_IT_QUEUE = "__pgboss__send-it";

/**
 * The external scheduler: pg-boss, on PostgreSQL in its own schema, or on the embedded PGlite in
 * process. The service never fires a schedule itself: pg-boss's cron pass sends a job at each instant
 * (once, with several instances on one database), and a worker turns the job into a fleet event.
 * Starting keeps retrying in the background, so the API serves while the scheduler is out of reach.
 */
export class ScheduleEngine {
  private readonly boss: PgBoss;
  private ready = false;
  private stopped = false;
  private retryTimer: NodeJS.Timeout | null = null;
  private offers: NodeJS.Timeout[] = [];
  /** The fire worker's id, for waking it at an instant sent ahead; null until started. */
  private fireWorker: string | null = null;
  /** Wake-ups at the instants this instance sent ahead (`sendAhead`). */
  private readonly wakeUps = new Set<NodeJS.Timeout>();

  constructor(
    shared: DatabaseHandle["shared"],
    private readonly options: EngineOptions,
  ) {
    const timing = { cronMonitorIntervalSeconds: 1, cronWorkerIntervalSeconds: 1, supervise: true };
    this.boss =
      shared.kind === "pglite" && options.url === undefined
        ? new PgBoss({ db: fromPglite(shared.pglite), backend: "pglite", ...timing })
        : new PgBoss({
            connectionString: options.url ?? (shared as { url: string }).url,
            max: 4,
            connectionTimeoutMillis: options.deadlineMs,
            useListenNotify: true,
            ...timing,
          });
    this.boss.on("error", (error) => options.onError(error));
  }

  get available(): boolean {
    return this.ready;
  }

  /** Starts pg-boss, retrying with backoff until it answers; resolves after the first attempt. */
  async start(): Promise<void> {
    await this.attempt(1_000);
  }

  private async attempt(nextDelay: number): Promise<void> {
    if (this.stopped) return;
    try {
      await this.boss.start();
      await this.boss.createQueue(FIRE_QUEUE, { retryLimit: 3, retryDelay: 1, notify: true });
      // A cron pass hands each due instant to pg-boss's internal forwarding queue, whose worker polls
      // once a second: with NOTIFY it wakes at once, which takes up to a second off cron → event. The
      // queue is pg-boss's own (pinned version); if it ever goes, forwarding still works by polling.
      await this.boss.updateQueue(SEND_IT_QUEUE, { notify: true }).catch(() => {});
      this.fireWorker = await this.boss.work(
        FIRE_QUEUE,
        // Every half second even with NOTIFY on (whose backstop poll is otherwise 30 s): a fire sent
        // ahead becomes due at its instant without any notification, and is found by this poll.
        {
          pollingIntervalSeconds: 0.5,
          notifyPollingIntervalSeconds: 0.5,
          batchSize: 20,
          includeMetadata: true,
        },
        async (jobs: JobWithMetadata<FireData>[]) => {
          for (const job of jobs) {
            const due = Math.max(job.createdOn.getTime(), job.startAfter.getTime());
            await this.options.onFire(job.data, due);
          }
        },
      );
      for (const offer of this.offers.splice(0)) clearInterval(offer); // from an attempt that failed later
      for (const job of this.options.periodic ?? []) {
        await this.boss.createQueue(job.queue, { policy: "exclusive", retryLimit: 0, expireInSeconds: 60 });
        await this.boss.work(job.queue, { pollingIntervalSeconds: 0.5 }, () => job.run());
        const offer = setInterval(() => {
          if (this.ready)
            this.boss.send(job.queue, {}).catch((error: unknown) => this.options.onError(error));
        }, job.everyMs);
        offer.unref();
        this.offers.push(offer);
      }
      this.ready = true;
    } catch (error) {
      this.options.onError(error);
      await this.boss.stop({ graceful: false, close: true }).catch(() => {});
      this.retryTimer = setTimeout(() => void this.attempt(Math.min(nextDelay * 2, 15_000)), nextDelay);
      this.retryTimer.unref();
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    for (const offer of this.offers) clearInterval(offer);
    for (const wakeUp of this.wakeUps) clearTimeout(wakeUp);
    this.wakeUps.clear();
    if (this.ready) await this.boss.stop({ graceful: true, close: true, timeout: 5_000 }).catch(() => {});
    this.ready = false;
  }

  private within<T>(work: Promise<T>): Promise<T> {
    if (!this.ready) {
      work.catch(() => {});
      return Promise.reject(new SchedulerUnavailable("the scheduler is not reachable"));
    }
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () =>
          reject(
            new SchedulerUnavailable(`the scheduler did not answer within ${this.options.deadlineMs} ms`),
          ),
        this.options.deadlineMs,
      );
      work.then(
        (value) => {
          clearTimeout(timer);
          resolve(value);
        },
        (error: unknown) => {
          clearTimeout(timer);
          reject(error);
        },
      );
    });
  }

  register(key: string, cron: string, timezone: string, data: FireData): Promise<void> {
    if (!this.ready) return Promise.reject(new SchedulerUnavailable("the scheduler is not reachable"));
    return this.within(this.boss.schedule(FIRE_QUEUE, cron, data, { tz: timezone, key }));
  }

  /**
   * Sends a fire ahead, held by pg-boss until `at`, and wakes this instance's fire worker just after `at`
   * so it fetches the job then: it becomes an event within a round trip of its instant, where the worker's
   * half-second poll (which still finds it, on any instance, if the wake-up is lost) took up to half a
   * second and the cron pass (once a second, at a phase that drifts) up to a second. The cron registration
   * stays the source of every fire; this one only gets there first, and the later of the two is dropped as
   * a second delivery of its instant.
   */
  sendAhead(data: FireData, at: number): Promise<void> {
    if (!this.ready) return Promise.reject(new SchedulerUnavailable("the scheduler is not reachable"));
    const options = { startAfter: new Date(at), singletonKey: `${data.schedule_id}:${at}` };
    return this.within(this.boss.send(FIRE_QUEUE, data, options).then(() => this.wakeAt(at + WAKE_AFTER_MS)));
  }

  /** Wakes the fire worker at `at` (not beyond a day ahead: the poll finds those, and timers overflow). */
  private wakeAt(at: number): void {
    const worker = this.fireWorker;
    const delay = at - Date.now();
    if (worker === null || this.stopped || delay > WAKE_AHEAD_MAX_MS) return;
    const wakeUp = setTimeout(
      () => {
        this.wakeUps.delete(wakeUp);
        if (this.ready) this.boss.notifyWorker(worker);
      },
      Math.max(0, delay),
    );
    wakeUp.unref();
    this.wakeUps.add(wakeUp);
  }

  unregister(key: string): Promise<void> {
    if (!this.ready) return Promise.reject(new SchedulerUnavailable("the scheduler is not reachable"));
    return this.within(this.boss.unschedule(FIRE_QUEUE, key));
  }

  async registered(): Promise<RegisteredSchedule[]> {
    if (!this.ready) throw new SchedulerUnavailable("the scheduler is not reachable");
    const rows = await this.within(this.boss.getSchedules(FIRE_QUEUE));
    return rows.map((row) => ({
      key: row.key,
      cron: row.cron,
      timezone: row.timezone,
      data: row.data as FireData,
    }));
  }

  /** The latest instant at or before `at` (looking back a little over pg-boss's due window). */
  previousFire(cron: string, timezone: string, at: number): number | null {
    try {
      const instants = this.boss.previewSchedule(cron, {
        tz: timezone,
        from: new Date(at - 61_000),
        count: 5,
      });
      const past = instants.map((date) => date.getTime()).filter((time) => time <= at);
      return past.at(-1) ?? null;
    } catch {
      return null;
    }
  }

  /** The next fire after `from`, by the same engine that fires; null when it cannot be read. */
  nextFire(cron: string, timezone: string, from: Date): number | null {
    try {
      const [next] = this.boss.previewSchedule(cron, { tz: timezone, from, count: 1 });
      return next ? next.getTime() : null;
    } catch {
      return null;
    }
  }
}
