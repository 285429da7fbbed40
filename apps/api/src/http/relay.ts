import type { FastifyReply } from "fastify";

/**
 * A vendor's answer relayed as it came (`relay: true` operations): a whole body, or chunks written and
 * flushed one by one as the vendor sends them (never buffered whole). `done` runs once the body is
 * written or the client has gone, whichever is first.
 */
export interface RelayAnswer {
  status: number;
  headers: Record<string, string>;
  body: string | AsyncIterable<string>;
  done?: () => void;
}

/** Resolves once the response can take more, or is closed; leaves no listener behind. */
function drainedOrClosed(raw: FastifyReply["raw"]): Promise<void> {
  return new Promise<void>((resolve) => {
    const done = () => {
      raw.off("drain", done);
      raw.off("close", done);
      resolve();
    };
    raw.on("drain", done);
    raw.on("close", done);
    if (raw.destroyed) done();
  });
}

/** Writes a relayed answer on the raw response, chunk by chunk, as the source yields them. */
export async function sendRelay(
  reply: FastifyReply,
  answer: RelayAnswer,
  logError: (error: unknown) => void,
): Promise<FastifyReply> {
  let finished = false;
  const finish = () => {
    if (finished) return;
    finished = true;
    answer.done?.();
  };
  if (typeof answer.body === "string") {
    reply.raw.once("close", finish);
    // A client gone before the answer began: its close has fired already.
    if (reply.raw.destroyed) finish();
    reply.code(answer.status).headers(answer.headers);
    return reply.send(answer.body);
  }
  const source = answer.body[Symbol.asyncIterator]();
  const raw = reply.raw;
  reply.hijack();
  // A client that goes stops the writing, not the source: the source is read to its end (bounded by its
  // own deadline and size), so what it settles at its end (a model call's usage, its charge) still happens.
  let gone = raw.destroyed;
  raw.once("close", () => {
    gone = true;
  });
  // What is written in one turn of the event loop goes out in one write: the head with the first piece
  // when the vendor's first read is already in, each piece as it comes, and the last piece with the
  // response's end. The socket is corked at a turn's first write and uncorked once the turn's I/O
  // callbacks have run (setImmediate), so no piece waits for a later read.
  const socket = raw.socket;
  let corked = false;
  const uncork = () => {
    corked = false;
    socket?.uncork();
  };
  const cork = () => {
    if (corked || socket === null || socket.destroyed) return;
    corked = true;
    socket.cork();
    setImmediate(uncork);
  };
  if (!gone) {
    cork();
    raw.writeHead(answer.status, {
      ...answer.headers,
      "cache-control": "no-store",
      "x-accel-buffering": "no",
    });
    raw.flushHeaders();
  }
  try {
    for (let next = await source.next(); !next.done; next = await source.next()) {
      if (gone || raw.destroyed) {
        gone = true;
        continue;
      }
      cork();
      if (!raw.write(next.value)) await drainedOrClosed(raw);
    }
  } catch (error) {
    logError(error);
  } finally {
    if (!raw.writableEnded && !raw.destroyed) {
      cork();
      raw.end();
    }
    finish();
  }
  return reply;
}
