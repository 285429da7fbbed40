import { type Database, PoolTimeoutError, parseDatabaseUrl } from "@fleet/db";
import type { ServiceContext } from "./context.ts";
import { databaseError } from "./errors.ts";

/** Statements running at once, each with its own connection; the rest wait and go together. */
const IN_FLIGHT = 2;
/** The most rows one statement takes. */
const MAX_ROWS = 500;

/** Stores a batch's rows in one statement and answers each row, by its id. */
export type BatchStatement<Row extends { id: string }, Answer> = (
  db: Database,
  rows: Row[],
) => Promise<Map<string, Answer>>;

interface Waiting<Row, Answer> {
  row: Row;
  /** When it was queued (`performance.now()`). */
  since: number;
  resolve: (answer: Answer) => void;
  reject: (error: unknown) => void;
}

/**
 * Group commit (messages, acquires, reports, renewals, gateway charges, webhook attempts; and one batch of
 * reads, the reports' masker reads). Each batch's statement must be atomic on its own (one statement, or one
 * transaction): a failed batch's rows are told the failure or tried again alone, which is right only if
 * none of them was committed. A message waits for the end of the event-loop turn it arrived in and is
 * stored with every other message queued by then, in one statement and one commit; while `IN_FLIGHT`
 * statements run, the queue grows and goes as the next. Alone, a message goes at once; under load one
 * commit (and one round trip) answers many, which is what a send costs most: its commit, not its row.
 * Each message still gets its own answer (`statement` answers every row by its id: stored, or why not),
 * and a row whose data fails the statement fails alone. Sends without a key (`storeChats`) and with one
 * (`sendOnce`'s claims) have a queue each. A message waits in the queue no longer
 * than a call waits for a connection on PostgreSQL (`maxWaitMs`, the pool's own deadline): with the
 * database out of reach it is refused then (503) and never sent, rather than stored after its client
 * gave up.
 */
export class GroupCommit<Row extends { id: string }, Answer> {
  #queue: Waiting<Row, Answer>[] = [];
  #running = 0;
  #scheduled = false;
  #deadline: NodeJS.Timeout | null = null;

  constructor(
    private readonly db: Database,
    private readonly statement: BatchStatement<Row, Answer>,
    /** The pool's wait for a connection; null on PGlite, where every call waits its turn in process. */
    private readonly maxWaitMs: number | null,
    /** Rows with the same conflict key never share a statement: the later one goes in the next. */
    private readonly conflictKey?: (row: Row) => string,
  ) {}

  /** Stores the row with the others queued by the end of this turn, and answers it. */
  store(row: Row): Promise<Answer> {
    return new Promise((resolve, reject) => {
      this.#queue.push({ row, since: performance.now(), resolve, reject });
      this.#schedule();
    });
  }

  #schedule(): void {
    if (this.#running >= IN_FLIGHT) this.#watchDeadline();
    if (this.#scheduled || this.#running >= IN_FLIGHT || this.#queue.length === 0) return;
    this.#scheduled = true;
    setImmediate(() => {
      this.#scheduled = false;
      this.#refuseOverdue();
      while (this.#running < IN_FLIGHT && this.#queue.length > 0) {
        const batch = this.#take();
        this.#running++;
        storeBatch(this.db, this.statement, batch).finally(() => {
          this.#running--;
          this.#schedule();
        });
      }
    });
  }

  /** The next batch: the queue's oldest rows, a row whose conflict key is already taken left for later. */
  #take(): Waiting<Row, Answer>[] {
    const conflictKey = this.conflictKey;
    if (conflictKey === undefined) return this.#queue.splice(0, MAX_ROWS);
    const taken: Waiting<Row, Answer>[] = [];
    const kept: Waiting<Row, Answer>[] = [];
    const keys = new Set<string>();
    for (const waiting of this.#queue) {
      const key = conflictKey(waiting.row);
      if (taken.length < MAX_ROWS && !keys.has(key)) {
        keys.add(key);
        taken.push(waiting);
      } else kept.push(waiting);
    }
    this.#queue = kept;
    return taken;
  }

  /** While every statement is busy (a database that hangs), the queue's head is refused at its deadline. */
  #watchDeadline(): void {
    const head = this.#queue[0];
    if (this.maxWaitMs === null || this.#deadline !== null || head === undefined) return;
    this.#deadline = setTimeout(
      () => {
        this.#deadline = null;
        this.#refuseOverdue();
        if (this.#running >= IN_FLIGHT) this.#watchDeadline();
      },
      Math.max(0, head.since + (this.maxWaitMs ?? 0) - performance.now()) + 1,
    );
    this.#deadline.unref();
  }

  /** The queue is oldest first: refuses from its head what waited past the deadline. */
  #refuseOverdue(): void {
    if (this.maxWaitMs === null) return;
    const deadline = performance.now() - this.maxWaitMs;
    let overdue = 0;
    while (overdue < this.#queue.length && this.#queue[overdue]!.since < deadline) overdue++;
    for (const waiting of this.#queue.splice(0, overdue))
      waiting.reject(new PoolTimeoutError(`no database connection came free within ${this.maxWaitMs} ms`));
  }
}

async function storeBatch<Row extends { id: string }, Answer>(
  db: Database,
  statement: BatchStatement<Row, Answer>,
  batch: Waiting<Row, Answer>[],
): Promise<void> {
  const answer = async (waitings: Waiting<Row, Answer>[]) => {
    const answers = await statement(
      db,
      waitings.map((waiting) => waiting.row),
    );
    for (const waiting of waitings) {
      const found = answers.get(waiting.row.id);
      if (found === undefined) waiting.reject(new Error("a batch statement left a row unanswered"));
      else waiting.resolve(found);
    }
  };
  try {
    await answer(batch);
  } catch (error) {
    if (!rowError(error)) {
      // The database's or the connection's failure: every message in the batch meets it, as it would alone.
      for (const waiting of batch) waiting.reject(error);
      return;
    }
    // One row's data failed the whole statement (its fleet deleted meanwhile, say): each goes alone, one
    // after another, so the retry holds this batch's one connection and never crowds out other requests.
    // A batch of one goes again too: a fleet deleted while the statement waited on its row fails the
    // event's foreign key, and the statement run again no longer finds the fleet (refused, 404).
    for (const waiting of batch) {
      try {
        await answer([waiting]);
      } catch (alone) {
        waiting.reject(alone);
      }
    }
  }
}

/**
 * The batches of `statement` on this service's database: one per database handle, shared by every request.
 * The queue's deadline is the pool's wait for a connection, on PostgreSQL.
 */
export function batchesOf<Row extends { id: string }, Answer>(
  kinds: WeakMap<Database, GroupCommit<Row, Answer>>,
  { db, config }: ServiceContext,
  statement: BatchStatement<Row, Answer>,
  conflictKey?: (row: Row) => string,
): GroupCommit<Row, Answer> {
  let found = kinds.get(db);
  if (found === undefined) {
    const pooled = parseDatabaseUrl(config.databaseUrl).kind === "postgres";
    found = new GroupCommit(db, statement, pooled ? config.dbConnectTimeoutMs : null, conflictKey);
    kinds.set(db, found);
  }
  return found;
}

/**
 * A data exception (22), an integrity violation (23), one statement touching a row twice (21000), or a
 * deadlock (40P01), none of which one row alone causes again: the statement's rows, not the database,
 * failed.
 */
function rowError(error: unknown): boolean {
  return databaseError(error, /^(2[23][0-9A-Z]{3}|21000|40P01)$/) !== null;
}
