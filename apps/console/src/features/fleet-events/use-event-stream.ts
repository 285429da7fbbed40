"use client";

import { useCallback, useEffect, useRef, useState } from "react";
import { REQUEST_TIMEOUT_MS, unansweredOf } from "../../lib/api-fetch.ts";
import { backoffMs, RecentIds, SseParser } from "../../lib/sse.ts";
import { useTRPCClient } from "../../lib/trpc.ts";
import { type HelloFrame, type RunFrame, type RunFrameKind, readRunFrame } from "./stream-frames.ts";

/**
 * Where a stream stands: `unavailable` when the API serves no stream (an API before live tail): the
 * caller keeps polling instead.
 */
export type StreamState = "connecting" | "live" | "reconnecting" | "offline" | "unavailable";

/** The server sends a heartbeat after 15 s idle: this much silence means the connection is dead. */
const SILENCE_MS = 20_000;
/**
 * A live stream silent this long asks the API whether it still answers: a stream is quiet for up to 15 s
 * when nothing happens, and a hung API is as quiet, so silence alone took 20 s to notice one.
 */
const PROBE_AFTER_MS = 5_000;
/** How long that question waits: no answer by then, and the stream is taken for lost. */
const PROBE_TIMEOUT_MS = 3_000;
/** Failed attempts in a row before the indicator says offline (it keeps trying, and offers Reconnect). */
const OFFLINE_AFTER = 3;

export interface EventStreamOptions {
  workspaceId: string | undefined;
  /** The fleet's stream; the workspace's when absent. */
  fleetId?: string | undefined;
  /** Only these kinds (`kinds=` filter); every kind when absent. */
  kinds?: readonly RunFrameKind[];
  /** Each frame once, in order, also across reconnects. */
  onFrame: (frame: RunFrame) => void;
  /**
   * What the page shows may have missed frames the stream cannot replay (a `reset`, or a fresh
   * subscription): refetch the lists.
   */
  onGap: () => void;
}

export interface EventStream {
  state: StreamState;
  /** Why the stream stopped for good (access revoked), if it did. */
  ended: string | null;
  reconnect: () => void;
}

class Refused extends Error {
  constructor(
    readonly status: number,
    readonly retryAfterMs: number | undefined,
  ) {
    super(`HTTP ${status}`);
  }
}

/** The stream's URL, through the console's own origin (its proxy adds the session's credential). */
export function streamUrl(workspaceId: string, fleetId: string | undefined, kinds?: readonly string[]) {
  const base = `/v1/workspaces/${encodeURIComponent(workspaceId)}`;
  const path = fleetId
    ? `${base}/fleets/${encodeURIComponent(fleetId)}/events/stream`
    : `${base}/events/stream`;
  return kinds && kinds.length > 0 ? `${path}?kinds=${kinds.join(",")}` : path;
}

/**
 * Follows an event stream: reconnects with jittered backoff and `Last-Event-ID` (so the server replays
 * what was missed), drops frames seen before, and says honestly whether it is live. A connection that
 * stays silent past the heartbeat, an API that does not answer while the stream is quiet (asked after
 * 5 s of quiet, given 3 s), or a browser gone offline, counts as lost at once.
 */
export function useEventStream({
  workspaceId,
  fleetId,
  kinds,
  onFrame,
  onGap,
}: EventStreamOptions): EventStream {
  const url = workspaceId ? streamUrl(workspaceId, fleetId, kinds) : null;
  const client = useTRPCClient();
  const [state, setState] = useState<StreamState>("connecting");
  const [ended, setEnded] = useState<string | null>(null);
  const [round, setRound] = useState(0);
  const handlers = useRef({ onFrame, onGap });
  handlers.current = { onFrame, onGap };
  // Kept across reconnects (and a Reconnect press) of one URL: where to resume, and what was seen.
  const resume = useRef<{ url: string | null; lastId: string | undefined; seen: RecentIds }>({
    url: null,
    lastId: undefined,
    seen: new RecentIds(),
  });

  useEffect(() => {
    void round;
    if (url === null) return;
    if (resume.current.url !== url) resume.current = { url, lastId: undefined, seen: new RecentIds() };
    const memory = resume.current;
    let stopped = false;
    /** Attempts failed in a row: a subscription that said hello starts the count again. */
    let failures = 0;
    let controller: AbortController | null = null;
    let wake: (() => void) | null = null;
    setState("connecting");
    setEnded(null);

    const sleep = (ms: number) =>
      new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, ms);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });

    /** One connection, until it ends; answers why it ended for good, or throws to be retried. */
    async function connect(): Promise<"unavailable" | "ended"> {
      const abort = new AbortController();
      controller = abort;
      let silence: ReturnType<typeof setTimeout> | undefined;
      let quiet: ReturnType<typeof setTimeout> | undefined;
      /** Chunks read so far: a probe that fails after bytes came again speaks of a moment now past. */
      let reads = 0;
      // The wait for the answer's headers is bounded like any request, then the wait between bytes.
      const arm = (ms: number) => {
        clearTimeout(silence);
        silence = setTimeout(() => abort.abort(), ms);
      };
      // While the stream is quiet, the API is asked every few seconds whether it still answers: a cheap
      // read (the signed-in person) through the same proxy; any answer from the API, a refusal included,
      // means it lives.
      const probeWhenQuiet = () => {
        clearTimeout(quiet);
        quiet = setTimeout(async () => {
          const asked = reads;
          const deadline = AbortSignal.timeout(PROBE_TIMEOUT_MS);
          let answered = true;
          try {
            await client.users.getMe.query({}, { signal: AbortSignal.any([abort.signal, deadline]) });
          } catch (error) {
            answered = !deadline.aborted && unansweredOf(error) === undefined;
          }
          if (reads !== asked || abort.signal.aborted) return;
          if (answered) probeWhenQuiet();
          else abort.abort();
        }, PROBE_AFTER_MS);
      };
      arm(REQUEST_TIMEOUT_MS);
      try {
        const headers: Record<string, string> = { accept: "text/event-stream" };
        const fresh = memory.lastId === undefined;
        if (!fresh) headers["last-event-id"] = memory.lastId!;
        const response = await fetch(url!, { headers, signal: abort.signal, cache: "no-store" });
        // An API without the stream (404, or 400 where the path reads as an event id) refuses it for
        // good: the page polls instead. A refusal that may pass (429, 5xx) is retried.
        if (
          response.status >= 400 &&
          response.status < 500 &&
          ![401, 403, 408, 429].includes(response.status)
        )
          return "unavailable";
        const type = response.headers.get("content-type") ?? "";
        if (!response.ok || !type.startsWith("text/event-stream") || response.body === null) {
          const retryAfter = Number(response.headers.get("retry-after"));
          await response.body?.cancel().catch(() => undefined);
          throw new Refused(
            response.status,
            Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter * 1000 : undefined,
          );
        }
        arm(SILENCE_MS);
        probeWhenQuiet();
        const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
        const parser = new SseParser();
        for (;;) {
          const { value, done } = await reader.read();
          if (done) throw new Error("the stream ended");
          reads += 1;
          arm(SILENCE_MS);
          probeWhenQuiet();
          for (const frame of parser.push(value)) {
            if (frame.event === "hello") {
              const hello = safeJson<HelloFrame>(frame.data);
              memory.lastId ??= frame.id ?? hello?.last_frame_id ?? undefined;
              setState("live");
              failures = 0;
              // A fresh subscription replays nothing: what happened before it, the lists refetch.
              if (fresh) handlers.current.onGap();
            } else if (frame.event === "reset") {
              if (frame.id) memory.lastId = frame.id;
              handlers.current.onGap();
            } else if (frame.event === "access_revoked") {
              const reason = safeJson<{ reason?: string }>(frame.data)?.reason;
              setEnded(reason ? `Access was revoked (${reason}).` : "Access was revoked.");
              return "ended";
            } else {
              const run = readRunFrame(frame.event, frame.data);
              if (frame.id) memory.lastId = frame.id;
              if (run !== null && memory.seen.add(run.frame_id)) handlers.current.onFrame(run);
            }
          }
        }
      } finally {
        clearTimeout(silence);
        clearTimeout(quiet);
        abort.abort();
      }
    }

    async function follow() {
      while (!stopped) {
        try {
          const outcome = await connect();
          if (stopped) return;
          setState(outcome === "unavailable" ? "unavailable" : "offline");
          return;
        } catch (error) {
          if (stopped) return;
          if (error instanceof Refused && (error.status === 401 || error.status === 403)) {
            setState("offline");
            setEnded("The stream refused this session: sign in again.");
            return;
          }
          failures += 1;
          setState(failures >= OFFLINE_AFTER ? "offline" : "reconnecting");
          const retryAfter = error instanceof Refused ? error.retryAfterMs : undefined;
          await sleep(Math.max(retryAfter ?? 0, backoffMs(failures)));
        }
      }
    }

    const lost = () => controller?.abort();
    const back = () => wake?.();
    window.addEventListener("offline", lost);
    window.addEventListener("online", back);
    void follow();
    return () => {
      stopped = true;
      window.removeEventListener("offline", lost);
      window.removeEventListener("online", back);
      controller?.abort();
      wake?.();
    };
  }, [url, round, client]);

  const reconnect = useCallback(() => setRound((value) => value + 1), []);
  return { state: url === null ? "connecting" : state, ended, reconnect };
}

function safeJson<T>(text: string): T | null {
  try {
    return JSON.parse(text) as T;
  } catch {
    return null;
  }
}
