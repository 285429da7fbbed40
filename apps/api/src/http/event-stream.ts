import { randomUUID } from "node:crypto";
import type { ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { Problem } from "@fleet/contracts";
import type { FastifyReply } from "fastify";
import { invalidationTags, type Principal } from "../auth/principal.ts";
import type { StreamHub, StreamSubscription, Subscriber } from "../runtime/stream-hub.ts";
import { leaveInFlight } from "./in-flight.ts";
import { type StreamShareSettings, StreamShares, type StreamSlot } from "./stream-shares.ts";

/** What a client waits before reconnecting, sent at the start and as a shutdown's last words. */
const RETRY_MS = 2_000;
/** How often every stream's credential is checked again, besides at once on an invalidation. */
const RECHECK_EVERY_MS = 10_000;

export interface EventStreamSettings extends StreamShareSettings {
  heartbeatMs: number;
  /** Unsent bytes past which a reader counts as too slow and is dropped. */
  maxBuffered: number;
  replayFrames: number;
  replaySeconds: number;
}

/**
 * Whether the caller may still read what the stream shows: the operation's `authorize` (its credential,
 * class and scope), and with `full` its resolver again (the workspace and fleet are still the tenant's).
 * A refusal ends the stream; a failure to find out (the database out of reach) does not.
 */
export type Recheck = (full: boolean) => Promise<void>;

interface OpenStream extends Subscriber {
  raw: ServerResponse;
  /** Where frames are written once the head is out (see `open`). */
  socket: Socket;
  principal: Principal;
  tags: string[];
  recheck: Recheck;
  slot: StreamSlot;
  lastWriteAt: number;
  /** Frames that arrived while the replay was read, sent once it has been. */
  pending: { id: number; frame: Buffer }[] | null;
  lastSentId: number;
  /** Bytes written since the hub began holding this stream (a batch in progress); null when not held. */
  held: number | null;
  close(): void;
}

/** A held stream sends what it holds once it reaches this much, so one batch never piles up unsent. */
const HOLD_MAX_BYTES = 64 * 1024;

const idText = (id: number | null) => (id === null ? null : String(id));

const HEARTBEAT = (at: number) => Buffer.from(`event: heartbeat\ndata: {"at":${at}}\n\n`);

/**
 * Serves the live-tail streams on raw responses: the subscriber cap, `hello`, the replay of a resume,
 * live frames from the hub, heartbeats, slow readers dropped, access rechecked (on every principal
 * invalidation, and every few seconds as a backstop), and a retry hint at shutdown.
 */
export class EventStreams {
  private readonly streams = new Set<OpenStream>();
  private readonly shares: StreamShares;
  private readonly ticker: NodeJS.Timeout;
  private readonly rechecker: NodeJS.Timeout;
  private closing = false;

  constructor(
    private readonly hub: StreamHub,
    private readonly settings: EventStreamSettings,
    private readonly now: () => number,
  ) {
    this.ticker = setInterval(() => this.heartbeat(), Math.max(50, Math.floor(settings.heartbeatMs / 4)));
    this.ticker.unref();
    this.rechecker = setInterval(() => this.recheckAll(() => true, false), RECHECK_EVERY_MS);
    this.rechecker.unref();
    this.shares = new StreamShares(settings);
  }

  /**
   * Takes a place for the principal's stream before anything is written, or refuses it: past the
   * instance's cap 503 UZ-API-002, past its credential's or its tenant's share 429 UZ-API-001, each with
   * Retry-After. The place is the caller's to hand to `open`, or to release if the request fails first.
   */
  admit(principal: Principal): StreamSlot {
    if (this.closing)
      throw new Problem("UZ-API-002", {
        detail: "This instance is shutting down; retry on another instance.",
        headers: { "retry-after": "5" },
      });
    return this.shares.admit(principal);
  }

  /** Opens an admitted stream (its `slot` from `admit`, given back when the stream closes). */
  async open(
    reply: FastifyReply,
    subscription: StreamSubscription,
    principal: Principal,
    recheck: Recheck,
    slot: StreamSlot,
  ): Promise<void> {
    const raw = reply.raw;
    const socket = raw.socket;
    if (socket === null || this.closing) {
      // the client went away before the stream began, or the instance is shutting down
      slot.release();
      if (socket !== null) raw.destroy();
      return;
    }
    const headers = reply.getHeaders();
    reply.hijack();
    // The body ends when the connection does, not chunked: each frame is then one write of the shared
    // buffer straight to the socket, without a chunk header and trailer of its own per stream.
    raw.useChunkedEncodingByDefault = false;
    raw.writeHead(200, {
      ...(headers as Record<string, string>),
      "content-type": "text/event-stream; charset=utf-8",
      // no-transform: a proxy that compresses (Next's, nginx with gzip on) would otherwise buffer frames
      // until its compressor fills a block, and a tail through it would stay silent.
      "cache-control": "no-store, no-transform",
      "x-accel-buffering": "no",
    });
    leaveInFlight(raw);
    socket.setNoDelay(true);
    const stream: OpenStream = {
      workspaceId: subscription.workspaceId,
      fleetId: subscription.fleetId,
      kinds: subscription.kinds,
      raw,
      socket,
      principal,
      tags: invalidationTags(principal),
      recheck,
      slot,
      lastWriteAt: this.now(),
      pending: [],
      lastSentId: subscription.afterId ?? 0,
      held: null,
      deliver: (id, frame) => {
        if (stream.pending !== null) stream.pending.push({ id, frame });
        else if (id > stream.lastSentId) this.write(stream, frame, id);
      },
      hold: () => {
        stream.held = 0;
        socket.cork();
      },
      release: () => {
        stream.held = null;
        socket.uncork();
      },
      close: () => {},
    };
    const unsubscribe = this.hub.subscribe(stream);
    this.streams.add(stream);
    stream.close = () => {
      unsubscribe();
      this.streams.delete(stream);
      slot.release();
    };
    raw.on("close", stream.close);
    const hello = {
      subscription_id: randomUUID(),
      replay_window: { frames: this.settings.replayFrames, seconds: this.settings.replaySeconds },
      last_frame_id: idText(subscription.afterId ?? this.hub.newestId()),
    };
    raw.write(`retry: ${RETRY_MS}\n\nevent: hello\ndata: ${JSON.stringify(hello)}\n\n`);
    if (subscription.afterId !== null) {
      let reset = true; // a window out of reach is a gap the client cannot have filled: it refetches
      try {
        const replay = await this.hub.replay(subscription, subscription.afterId);
        reset = replay.reset;
        for (const { id, frame } of replay.frames) this.write(stream, frame, id);
      } catch {
        // reset stays true
      }
      if (reset) {
        raw.write('event: reset\ndata: {"reason":"gap_too_old"}\n\n');
        // Live frames from here on, whatever their ids: the client's id may be one never issued here.
        stream.lastSentId = 0;
      }
    }
    const pending = stream.pending ?? [];
    stream.pending = null;
    for (const { id, frame } of pending) if (id > stream.lastSentId) this.write(stream, frame, id);
  }

  /** Rechecks the streams of principals tagged `tag` (`*` for all): called on every invalidation. */
  invalidated(tag: string): void {
    this.recheckAll((stream) => tag === "*" || stream.tags.includes(tag), true);
  }

  /** Shutdown: every stream gets a retry hint and is closed; no new one is admitted. */
  closeAll(): void {
    this.closing = true;
    clearInterval(this.ticker);
    clearInterval(this.rechecker);
    for (const stream of [...this.streams]) {
      stream.raw.end(`retry: ${RETRY_MS}\n\n`);
      stream.close();
    }
  }

  private write(stream: OpenStream, frame: Buffer, id: number): void {
    // What a held stream holds is this batch's, on its way: not what a slow reader left unread.
    if (stream.socket.writableLength - (stream.held ?? 0) > this.settings.maxBuffered) {
      // Too slow to keep up: buffering without bound would let one reader exhaust the instance.
      this.hub.droppedSlowReader();
      stream.close();
      stream.raw.destroy();
      return;
    }
    stream.lastSentId = id;
    stream.lastWriteAt = this.now();
    stream.socket.write(frame);
    if (stream.held === null) return;
    stream.held += frame.length;
    if (stream.held >= HOLD_MAX_BYTES) {
      stream.socket.uncork();
      stream.socket.cork();
      stream.held = 0;
    }
  }

  private heartbeat(): void {
    const now = this.now();
    let frame: Buffer | null = null;
    for (const stream of this.streams) {
      if (stream.pending !== null || now - stream.lastWriteAt < this.settings.heartbeatMs) continue;
      frame ??= HEARTBEAT(now);
      stream.lastWriteAt = now;
      stream.socket.write(frame);
    }
  }

  /**
   * Rechecks the matching streams, a principal's streams together: one of them first, the rest once it
   * has answered, so thousands of streams on one key cost one database read (the principal is cached by
   * then), not thousands at once.
   */
  private recheckAll(matches: (stream: OpenStream) => boolean, full: boolean): void {
    const byPrincipal = new Map<string, OpenStream[]>();
    for (const stream of this.streams) {
      if (!matches(stream)) continue;
      const key = stream.tags.join(" ");
      const group = byPrincipal.get(key);
      if (group === undefined) byPrincipal.set(key, [stream]);
      else group.push(stream);
    }
    for (const [first, ...rest] of byPrincipal.values())
      void this.recheckOne(first!, full).then(() => Promise.all(rest.map((s) => this.recheckOne(s, full))));
  }

  private async recheckOne(stream: OpenStream, full: boolean): Promise<void> {
    try {
      await stream.recheck(full);
    } catch (error) {
      if (!(error instanceof Problem) || error.status >= 500 || !this.streams.has(stream)) return;
      const reason = error.status === 404 ? "not_found" : "credential_revoked";
      stream.close();
      stream.raw.end(`event: access_revoked\ndata: ${JSON.stringify({ reason })}\n\n`);
    }
  }
}
