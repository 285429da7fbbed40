import type { DatabaseHandle } from "@fleet/db";
import {
  encodeFrame,
  type FrameInput,
  type ReplayAnswer,
  type StoredFrame,
  type StreamFilter,
  type Subscriber,
} from "./stream-frames.ts";
import {
  framesAfter,
  framesBetween,
  newestFrameId,
  pruneReplayWindow,
  pruneRunFramesBefore,
  replayFrames,
  STREAM_CHANNEL,
  storeFrames,
} from "./stream-store.ts";

export type {
  FrameInput,
  ReplayAnswer,
  StreamFilter,
  StreamSubscription,
  Subscriber,
} from "./stream-frames.ts";

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

/** How long frames stay in the replay window of a resume (docs/decisions/live-streams.md, "Live-tail streams"). */
export const REPLAY_SECONDS = 300;

const FLUSH_BATCH = 500;
const PRUNE_EVERY_MS = 30_000;

/**
 * The live tail's fan-out. A publisher's frame is queued in memory and the call returns; a flusher
 * stores the queue in `stream_frames` (the replay window) and sends one NOTIFY for the batch, carrying the
 * frames or, when they do not fit, the range of ids to read (`stream-store.ts`). Every instance (this one
 * too) LISTENs on one connection and writes each frame, serialised once, to its matching subscribers. The
 * flush (one statement) takes a lock of its own before its ids are drawn, so ids commit in order and a
 * resume "after id N" misses nothing; no business transaction ever waits on it.
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
      replaySeconds: REPLAY_SECONDS,
      replayFrames: 1_000,
      runRetentionMs: 7 * 24 * 3_600_000,
      runFramesPerLease: 2_000,
      onError: () => {},
      ...options,
    };
  }

  async start(handle: DatabaseHandle): Promise<void> {
    this.handle = handle;
    this.lastDelivered = await newestFrameId(handle);
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
    return replayFrames(handle, filter, afterId, this.options.replayFrames);
  }

  private async flushLoop(): Promise<void> {
    // Publishers of the same tick share one batch.
    await new Promise((resolve) => setImmediate(resolve));
    try {
      while (this.queue.length > 0 && this.handle !== null) {
        const batch = this.queue.splice(0, FLUSH_BATCH);
        try {
          await storeFrames(this.handle, batch, this.options.runFramesPerLease);
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
    this.fanOut(await framesBetween(handle, from, to));
  }

  /** After a lost LISTEN: the frames committed while it was down, from the table. */
  private async catchUp(): Promise<void> {
    const handle = this.handle;
    if (handle === null) return;
    this.fanOut(await framesAfter(handle, this.lastDelivered));
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

  /** Drops the replay window's frames older than the window, and runs' frames older than their retention. */
  private async prune(): Promise<void> {
    const handle = this.handle;
    if (handle === null) return;
    await pruneReplayWindow(handle, Date.now() - this.options.replaySeconds * 1000);
    await this.pruneRunFrames(Date.now());
  }

  /** Drops the runs' frames published before `now` less their retention; the pruner calls it every 30 s. */
  async pruneRunFrames(now: number): Promise<void> {
    const handle = this.handle;
    if (handle === null) return;
    await pruneRunFramesBefore(handle, now - this.options.runRetentionMs);
  }
}
