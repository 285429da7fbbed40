import { type IncomingHttpHeaders, type IncomingMessage, request } from "node:http";
import { expect } from "vitest";
import type { LeasedFleet } from "./approval-fixtures.ts";
import { call, type Tenant, testApi } from "./harness.ts";

/** One frame as an SSE client reads it: its `id:`, `event:` and parsed `data:`. */
export interface Frame {
  id: string | null;
  event: string;
  // biome-ignore lint/suspicious/noExplicitAny: frames are read field by field in assertions
  data: any;
}

export interface OpenedStream {
  status: number;
  headers: IncomingHttpHeaders;
  /** The problem body of a refusal; null on a stream. */
  // biome-ignore lint/suspicious/noExplicitAny: a problem body, read field by field
  problem: any;
  frames: Frame[];
  /** `retry:` values the server sent. */
  retries: number[];
  /** Waits for the first frame (after `from`) that `matches`; fails after `ms` listing what arrived. */
  next(matches: (frame: Frame) => boolean, ms?: number): Promise<Frame>;
  /** Resolves when the server ends the stream. */
  ended: Promise<void>;
  /** Stops reading: the response's socket stays open, unread (a slow reader). */
  pause(): void;
  close(): void;
}

/**
 * Opens a live-tail stream over real HTTP with a raw request (EventSource cannot send Authorization)
 * and parses the frames as an EventSource would.
 */
export function openStream(
  baseUrl: string,
  path: string,
  options: { token?: string; headers?: Record<string, string> } = {},
): Promise<OpenedStream> {
  const headers: Record<string, string> = { accept: "text/event-stream", ...options.headers };
  if (options.token !== undefined) headers.authorization = `Bearer ${options.token}`;
  return new Promise((resolve, reject) => {
    const req = request(`${baseUrl}${path}`, { method: "GET", headers });
    req.on("error", reject);
    req.on("response", (response: IncomingMessage) => {
      if (response.statusCode !== 200) {
        let text = "";
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => {
          text += chunk;
        });
        response.on("end", () =>
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            problem: text.length > 0 ? JSON.parse(text) : null,
            frames: [],
            retries: [],
            next: () => Promise.reject(new Error("not a stream")),
            ended: Promise.resolve(),
            pause: () => {},
            close: () => {},
          }),
        );
        return;
      }
      const frames: Frame[] = [];
      const retries: number[] = [];
      const waiters = new Set<() => void>();
      let buffer = "";
      let resolveEnded = () => {};
      const ended = new Promise<void>((done) => {
        resolveEnded = done;
      });
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => {
        buffer += chunk;
        for (let end = buffer.indexOf("\n\n"); end !== -1; end = buffer.indexOf("\n\n")) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          let id: string | null = null;
          let event = "message";
          let data: string | null = null;
          for (const line of block.split("\n")) {
            const colon = line.indexOf(": ");
            const field = colon === -1 ? line : line.slice(0, colon);
            const value = colon === -1 ? "" : line.slice(colon + 2);
            if (field === "id") id = value;
            else if (field === "event") event = value;
            else if (field === "data") data = value;
            else if (field === "retry") retries.push(Number(value));
          }
          if (data !== null) frames.push({ id, event, data: JSON.parse(data) });
        }
        for (const waiter of [...waiters]) waiter();
      });
      const finish = () => {
        resolveEnded();
        for (const waiter of [...waiters]) waiter();
      };
      response.on("end", finish);
      response.on("close", finish);
      response.on("error", finish);
      let finished = false;
      ended.then(() => {
        finished = true;
      });
      resolve({
        status: 200,
        headers: response.headers,
        problem: null,
        frames,
        retries,
        ended,
        next(matches, ms = 10_000) {
          return new Promise((found, failed) => {
            const check = () => {
              const frame = frames.find(matches);
              if (frame !== undefined) {
                cleanup();
                found(frame);
              } else if (finished) {
                cleanup();
                failed(new Error(`the stream ended; frames: ${JSON.stringify(frames)}`));
              }
            };
            const timer = setTimeout(() => {
              cleanup();
              failed(new Error(`no such frame within ${ms} ms; frames: ${JSON.stringify(frames)}`));
            }, ms);
            const cleanup = () => {
              clearTimeout(timer);
              waiters.delete(check);
            };
            waiters.add(check);
            check();
          });
        },
        pause: () => response.pause(),
        close: () => req.destroy(),
      });
    });
    req.end();
  });
}

/** A fleet's live tail, and its workspace's. */
export const fleetStream = (owner: Tenant, fleetId: string, query = "") =>
  `/v1/workspaces/${owner.workspaceId}/fleets/${fleetId}/events/stream${query}`;
export const workspaceStream = (owner: Tenant, query = "") =>
  `/v1/workspaces/${owner.workspaceId}/events/stream${query}`;

/** Opens a live tail on the worker's API, and expects it to open. */
export async function openTail(path: string, token: string, headers: Record<string, string> = {}) {
  const stream = await openStream((await testApi()).baseUrl, path, { token, headers });
  expect(stream.status, JSON.stringify(stream.problem)).toBe(200);
  return stream;
}

/** Publishes chunks through the activity route of a lease. */
export async function publishChunks(leased: LeasedFleet, texts: string[]) {
  const published = await call("POST", `/v1/runners/me/leases/${leased.lease.lease_id}/activity`, {
    token: leased.runner.token,
    body: { frames: texts.map((text) => ({ fleet_response_chunk: { text } })) },
  });
  expect(published.status, published.text).toBe(202);
}

export const framesOf = (stream: OpenedStream, event: string) =>
  stream.frames.filter((f) => f.event === event);
export const chunkTexts = (stream: OpenedStream) => framesOf(stream, "chunk").map((f) => f.data.payload.text);

/**
 * Publishes batches of frames through a lease's activity route, then waits until the fleet's live tail
 * sends the chunk `lastText`: the stream sends a frame after the transaction that keeps the run's copy
 * commits, so the kept frames are readable from then on.
 */
export async function publishKept(
  owner: Tenant,
  fleetId: string,
  lease: { token: string; leaseId: string },
  batches: object[][],
  lastText: string,
) {
  const stream = await openTail(fleetStream(owner, fleetId, "?kinds=chunk"), owner.apiKey);
  try {
    for (const frames of batches) {
      const accepted = await call("POST", `/v1/runners/me/leases/${lease.leaseId}/activity`, {
        token: lease.token,
        body: { frames },
      });
      expect(accepted.status, accepted.text).toBe(202);
    }
    await stream.next((frame) => frame.data.payload?.text === lastText);
  } finally {
    stream.close();
  }
}
