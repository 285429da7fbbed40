import { type Database, resultRows, sql } from "@fleet/db";

/** How often, at most, a deliverer compares the pending deliveries with what the statistics saw. */
const CHECK_EVERY_MS = 2_000;

/** Pending deliveries below which every plan of the claim is cheap: statistics are not worth a pass. */
const BEHIND_MIN = 1_000;

/** The most pending deliveries a check counts: past it, the statistics' "many" is right enough. */
const COUNT_MAX = 10_000;

/**
 * Keeps the deliveries table's statistics in step with its pending rows, for the claim's plan. A claim
 * planned on statistics that saw (almost) no pending delivery takes the backlog for a handful and reads
 * all of it for each row it claims: a burst of 20,000 (a replay, a backlog written at once) then drained at
 * 500 a second rather than 6,000, and the settle's update joined the same way. Autovacuum analyzes a
 * table only once a tenth of it has changed, at most once a minute, and PGlite has no autovacuum at all.
 *
 * So before a claim, at most every two seconds, the deliverer counts the pending rows (up to 10,000, by
 * the due index) beside the count the statistics saw (the due index's `reltuples`, which ANALYZE and
 * VACUUM set), and analyzes the table when at least 1,000 are pending and the statistics saw fewer than
 * half of them. Each analysis doubles what the statistics saw, so a growing backlog is analyzed a few
 * times, not every check; an analysis samples at most 30,000 rows (tens of milliseconds) and takes no lock
 * a write or a claim waits for. Instances analyze on their own; one that finds the work done skips it.
 */
export class DeliveryStatistics {
  private checkedAt = Number.NEGATIVE_INFINITY;
  /** Analyses run (for tests and the bench). */
  analyzed = 0;

  constructor(private readonly db: Database) {}

  async keepUp(): Promise<void> {
    const now = performance.now();
    if (now - this.checkedAt < CHECK_EVERY_MS) return;
    this.checkedAt = now;
    const [row] = resultRows<{ pending: number | string; seen: number | string }>(
      await this.db.execute(sql`
        select
          (select count(*) from (
             select 1 from webhook_deliveries where status = 'pending' limit ${COUNT_MAX}) p) as pending,
          (select reltuples from pg_class where oid = 'webhook_deliveries_due_idx'::regclass) as seen`),
    );
    const pending = Number(row?.pending ?? 0);
    // `reltuples` is -1 until the table is first analyzed or vacuumed.
    const seen = Math.max(Number(row?.seen ?? 0), 0);
    if (pending < BEHIND_MIN || pending <= 2 * seen) return;
    await this.db.execute(sql`analyze webhook_deliveries`);
    this.analyzed += 1;
  }
}
