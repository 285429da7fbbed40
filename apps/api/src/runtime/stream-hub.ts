import type { StreamFrameKind } from "@fleet/contracts";
import type { DatabaseHandle } from "@fleet/db";

export const STREAM_CHANNEL = "stream_frames";

/** What a stream listens to: a workspace, one fleet of it or all, some kinds or all. */
export interface StreamFilter {
  workspaceId: string;
  fleetId: string | null;
  kinds: ReadonlySet<string> | null;
}

/** What a stream operation's resolver answers: what to subscribe to, and the frame id to resume after. */
export interface StreamSubscription extends StreamFilter {
  afterId: number | null;
}

/** A frame as a publisher hands it over, before it has an id. */
export interface FrameInput {
  workspaceId: string;
  fleetId: string;
  /** Null for a gate no run raised (an integration grant's). */
  eventId: string | null;
  leaseId: string | null;
  kind: StreamFrameKind;
  payload: Record<string, unknown>;
  at: number;
}

/** A stored frame, as it travels in a NOTIFY payload and is read back from the table. */
interface StoredFrame {
  id: number;
  workspace_id: string;
  fleet_id: string;
  event_id: string | null;
  lease_id: string | null;
  kind: string;
  payload: Record<string, unknown>;
  at: number;
}

/** One open stream as the hub sees it: where it listens and how a frame reaches it. */
export interface Subscriber extends StreamFilter {
  /** Receives the frame's wire bytes, shared by every subscriber it goes to. */
  deliver(id: number, frame: Buffer): void;
  /** Several frames follow: keep what `deliver` writes until `release`, and send it together. */
  hold(): void;
  release(): void;
}

export interface ReplayAnswer {
  /** The frames after the given id, oldest first, as wire bytes; empty with `reset`. */
  frames: { id: number; frame: Buffer }[];
  /** The gap is older than the window holds: the client must refetch. */
  reset: boolean;
}

export interface StreamHubOptions {
  /** Seconds a frame stays in the replay window. */
  replaySeconds: number;
  /** At most this many frames are replayed to one resume; a larger gap is a reset. */
  replayFrames: number;
  /** Milliseconds a run's frames stay readable in its lease review (`run_frames`). */
  runRetentionMs: number;
  /** A lease keeps its first this many frames; later ones reach the live tail only. */
  runFramesPerLease: number;
  onError: (error: unknown) => void;
}

/** NOTIFY refuses payloads of 8,000 bytes or more; what does not fit goes by reference. */
const NOTIFY_MAX_BYTES = 7_900;
/** Publishers' transactions take this lock first, so frame ids commit in increasing order. */
const PUBLISH_LOCK = 7_311_045_015;
const FLUSH_BATCH = 500;
const PRUNE_EVERY_MS = 30_000;

/**
 * One statement stores a batch (`$1`, a JSON array of frames, each with its place `n`), in its own
 * transaction: it takes the publishers' lock before it draws ids, so ids commit in increasing order; stores
 * the frames in `stream_frames`, ids drawn in the batch's order; copies those that carry a lease id into
 * `run_frames`, up to `$2` a lease (the rows kept before, plus this batch's, counted per lease); and sends one
 * NOTIFY with the stored frames, or the range of their ids when that payload would not fit.
 */
const STORE_FRAMES = `
with locked as (select pg_advisory_xact_lock(${PUBLISH_LOCK})), stored as (
  insert into stream_frames (workspace_id, fleet_id, event_id, lease_id, kind, payload, at)
  select f.workspace_id, f.fleet_id, f.event_id, f.lease_id, f.kind, f.payload, f.at
    from locked, jsonb_to_recordset($1::text::jsonb)
      as f(n int, workspace_id uuid, fleet_id uuid, event_id uuid, lease_id uuid, kind text, payload jsonb, at bigint)
   order by f.n
  returning id, workspace_id, fleet_id, event_id, lease_id, kind, payload, at
), kept as (
  insert into run_frames (id, lease_id, workspace_id, fleet_id, kind, payload, at)
  select id, lease_id, workspace_id, fleet_id, kind, payload, at
    from (select s.*, row_number() over (partition by s.lease_id order by s.id) as place
            from stored s where s.lease_id is not null) as r
   where r.place <= $2::int - (select count(*) from run_frames k where k.lease_id = r.lease_id)
), note as (
  select json_build_object('f', json_agg(json_build_object(
           'id', id, 'workspace_id', workspace_id, 'fleet_id', fleet_id, 'event_id', event_id,
           'lease_id', lease_id, 'kind', kind, 'payload', payload, 'at', at) order by id))::text as frames,
         min(id) as low, max(id) as high
    from stored
)
select pg_notify('${STREAM_CHANNEL}', case when octet_length(frames) > ${NOTIFY_MAX_BYTES}
         then json_build_object('r', json_build_array(low, high))::text else frames end)
  from note`;

/** The wire bytes of a frame: `id:`, `event:` and one line of JSON, serialised once for every stream. */
export function encodeFrame(frame: StoredFrame): Buffer {
  const data = JSON.stringify({
    frame_id: String(frame.id),
    kind: frame.kind,
    workspace_id: frame.workspace_id,
    fleet_id: frame.fleet_id,
    event_id: frame.event_id,
    lease_id: frame.lease_id,
    at: Number(frame.at),
    payload: frame.payload,
  });
  return Buffer.from(`id: ${frame.id}\nevent: ${frame.kind}\ndata: ${data}\n\n`);
}

/**
 * The live tail's fan-out. A publisher's frame is queued in memory and the call returns; a flusher
 * stores the queue in `stream_frames` (the replay window) and sends one NOTIFY for the batch, carrying the
 * frames or, when they do not fit, the range of ids to read. Every instance (this one too) LISTENs on one
 * connection and writes each frame, serialised once, to its matching subscribers. The flush (one statement)
 * takes a lock of its own before its ids are drawn, so ids commit in order and a resume "after id N"
 * misses nothing; no business transaction ever waits on it.
 */
export class StreamHub {
  private readonly byWorkspace = new Map<string, Set<Subscriber>>();
  private queue: FrameInput[] = [];
  private flushing: Promise<void> | null = null;
  private receiving: Promise<void> = Promise.resolve();
  private handle: DatabaseHandle | null = null;
  private unlisten: (() => Promise<void>) | null = null;
  private pruner: NodeJS.Timeout | null = null;
  /** The newest id delivered here: after a lost LISTEN, what follows it is read back from the table. */
  private lastDelivered = 0;
  private lost = false;
  private counts = { open: 0, published: 0, dropped: 0, failed: 0 };

  private readonly options: StreamHubOptions;

  /** Unstarted (fleetctl, seeding), it drops what is published: no stream can be open there. */
  constructor(options: Partial<StreamHubOptions> = {}) {
    this.options = {
      replaySeconds: 300,
      replayFrames: 1_000,
      runRetentionMs: 7 * 24 * 3_600_000,
      runFramesPerLease: 2_000,
      onError: () => {},
      ...options,
    };
  }

  async start(handle: DatabaseHandle): Promise<void> {
    this.handle = handle;
    const [row] = await handle.query<{ high: string | null }>("select max(id) as high from stream_frames");
    this.lastDelivered = Number(row?.high ?? 0);
    this.unlisten = await handle.listen(
      STREAM_CHANNEL,
      (payload) => this.receive(payload),
      () => {
        if (!this.lost) return;
        this.lost = false;
        this.inOrder(() => this.catchUp());
      },
      () => {
        this.lost = true;
      },
    );
    this.pruner = setInterval(() => {
      this.prune().catch((error: unknown) => this.options.onError(error));
    }, PRUNE_EVERY_MS);
    this.pruner.unref();
  }

  async stop(): Promise<void> {
    if (this.pruner) clearInterval(this.pruner);
    this.pruner = null;
    await this.flushing?.catch(() => {});
    await this.unlisten?.().catch(() => {});
    this.unlisten = null;
    this.handle = null;
  }

  /** Open streams here, frames this instance stored and announced, slow readers dropped, frames lost. */
  stats(): { open: number; published: number; dropped: number; failed: number } {
    return { ...this.counts };
  }

  /**
   * Hands a frame to the live tail and returns at once: never throws, never waits on the database. A
   * frame of a transaction is published after it commits.
   */
  publish(frame: FrameInput): void {
    if (this.handle === null) return;
    this.queue.push(frame);
    this.flushing ??= this.flushLoop();
  }

  subscribe(subscriber: Subscriber): () => void {
    let set = this.byWorkspace.get(subscriber.workspaceId);
    if (set === undefined) {
      set = new Set();
      this.byWorkspace.set(subscriber.workspaceId, set);
    }
    set.add(subscriber);
    this.counts.open++;
    let subscribed = true;
    return () => {
      if (!subscribed) return;
      subscribed = false;
      this.counts.open--;
      set.delete(subscriber);
      if (set.size === 0 && this.byWorkspace.get(subscriber.workspaceId) === set)
        this.byWorkspace.delete(subscriber.workspaceId);
    };
  }

  /** The newest frame id delivered on this instance; null before any. */
  newestId(): number | null {
    return this.lastDelivered === 0 ? null : this.lastDelivered;
  }

  /** Counts a subscriber dropped for reading too slowly. */
  droppedSlowReader(): void {
    this.counts.dropped++;
  }

  /**
   * The frames of a workspace (a fleet, kinds) after `afterId`, or a reset when frames after it may have
   * left the window, or more than `replayFrames` follow it.
   */
  async replay(filter: StreamFilter, afterId: number): Promise<ReplayAnswer> {
    const handle = this.handle;
    if (handle === null) return { frames: [], reset: true };
    const [bounds] = await handle.query<{ low: string | null; high: string | null }>(
      "select min(id) as low, max(id) as high from stream_frames",
    );
    const low = Number(bounds?.low ?? 0);
    const high = Number(bounds?.high ?? 0);
    // Ids are never reused and the newest row is never pruned: an id past the newest was never issued here.
    if (afterId > high || (low > 0 && afterId < low - 1)) return { frames: [], reset: true };
    const rows = await handle.query<StoredFrame>(
      `select id, workspace_id, fleet_id, event_id, lease_id, kind, payload, at from stream_frames
        where workspace_id = $1 and id > $2 and ($3::uuid is null or fleet_id = $3::uuid)
          and ($4::text[] is null or kind = any($4::text[]))
        order by id limit $5`,
      [
        filter.workspaceId,
        afterId,
        filter.fleetId,
        filter.kinds === null ? null : [...filter.kinds],
        this.options.replayFrames + 1,
      ],
    );
    if (rows.length > this.options.replayFrames) return { frames: [], reset: true };
    return {
      frames: rows.map((row) => ({ id: Number(row.id), frame: encodeFrame(parsed(row)) })),
      reset: false,
    };
  }

  private async flushLoop(): Promise<void> {
    // Publishers of the same tick share one batch.
    await new Promise((resolve) => setImmediate(resolve));
    try {
      while (this.queue.length > 0 && this.handle !== null) {
        const batch = this.queue.splice(0, FLUSH_BATCH);
        try {
          await this.store(this.handle, batch);
          this.counts.published += batch.length;
        } catch (error) {
          this.counts.failed += batch.length;
          this.options.onError(error);
        }
      }
    } finally {
      this.flushing = null;
      if (this.queue.length > 0 && this.handle !== null) this.flushing = this.flushLoop();
    }
  }

  /** One round trip a batch: see STORE_FRAMES. */
  private async store(handle: DatabaseHandle, batch: FrameInput[]): Promise<void> {
    const rows = batch.map((frame, n) => ({
      n,
      workspace_id: frame.workspaceId,
      fleet_id: frame.fleetId,
      event_id: frame.eventId,
      lease_id: frame.leaseId,
      kind: frame.kind,
      payload: frame.payload,
      at: frame.at,
    }));
    await handle.query(STORE_FRAMES, [JSON.stringify(rows), this.options.runFramesPerLease]);
  }

  /** Runs receipt steps one after another, so frames reach subscribers in id order. */
  private inOrder(step: () => Promise<void> | void): void {
    this.receiving = this.receiving.then(step).catch((error: unknown) => this.options.onError(error));
  }

  private receive(payload: string): void {
    this.inOrder(async () => {
      const message = JSON.parse(payload) as { f?: StoredFrame[]; r?: [number, number] };
      if (message.f !== undefined) this.fanOut(message.f);
      else if (message.r !== undefined) await this.readRange(message.r[0], message.r[1]);
    });
  }

  private async readRange(from: number, to: number): Promise<void> {
    const handle = this.handle;
    if (handle === null) return;
    const rows = await handle.query<StoredFrame>(
      `select id, workspace_id, fleet_id, event_id, lease_id, kind, payload, at from stream_frames
        where id between $1 and $2 order by id`,
      [from, to],
    );
    this.fanOut(rows.map(parsed));
  }

  /** After a lost LISTEN: the frames committed while it was down, from the table. */
  private async catchUp(): Promise<void> {
    const handle = this.handle;
    if (handle === null) return;
    const rows = await handle.query<StoredFrame>(
      `select id, workspace_id, fleet_id, event_id, lease_id, kind, payload, at from stream_frames
        where id > $1 order by id limit 10000`,
      [this.lastDelivered],
    );
    this.fanOut(rows.map(parsed));
  }

  private fanOut(frames: StoredFrame[]): void {
    // A NOTIFY carries a batch: what one stream gets of it leaves in one write(2), not one per frame (a
    // write to a socket is most of what a frame costs). A single frame goes straight out.
    const held = frames.length > 1 ? new Set<Subscriber>() : null;
    try {
      for (const frame of frames) {
        if (frame.id <= this.lastDelivered) continue;
        this.lastDelivered = frame.id;
        const set = this.byWorkspace.get(frame.workspace_id);
        if (set === undefined) continue;
        let encoded: Buffer | null = null;
        for (const subscriber of set) {
          if (subscriber.fleetId !== null && subscriber.fleetId !== frame.fleet_id) continue;
          if (subscriber.kinds !== null && !subscriber.kinds.has(frame.kind)) continue;
          encoded ??= encodeFrame(frame);
          if (held !== null && !held.has(subscriber)) {
            held.add(subscriber);
            subscriber.hold();
          }
          subscriber.deliver(frame.id, encoded);
        }
      }
    } finally {
      if (held !== null) for (const subscriber of held) subscriber.release();
    }
  }

  /**
   * Drops frames older than the window, always keeping the newest (it bounds the ids ever issued), and
   * runs' frames older than their retention. The replay reads only `stream_frames`, so its window is
   * its own whatever the runs keep.
   */
  private async prune(): Promise<void> {
    const handle = this.handle;
    if (handle === null) return;
    await handle.query(
      "delete from stream_frames where at < $1 and id < (select max(id) from stream_frames)",
      [Date.now() - this.options.replaySeconds * 1000],
    );
    await this.pruneRunFrames(Date.now());
  }

  /** Drops the runs' frames published before `now` less their retention; the pruner calls it every 30 s. */
  async pruneRunFrames(now: number): Promise<void> {
    const handle = this.handle;
    if (handle === null) return;
    await handle.query("delete from run_frames where at < $1", [now - this.options.runRetentionMs]);
  }
}

/** A row read back: bigint columns arrive as strings from postgres.js. */
function parsed(row: StoredFrame): StoredFrame {
  return { ...row, id: Number(row.id), at: Number(row.at) };
}
