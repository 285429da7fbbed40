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

/** Writes a relayed answer on the raw response, chunk by chunk, stopping the source when the client goes. */
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
    reply.code(answer.status).headers(answer.headers);
    return reply.send(answer.body);
  }
  const source = answer.body[Symbol.asyncIterator]();
  const raw = reply.raw;
  reply.hijack();
  raw.writeHead(answer.status, { ...answer.headers, "cache-control": "no-store", "x-accel-buffering": "no" });
  raw.flushHeaders();
  let gone = false;
  raw.once("close", () => {
    gone = true;
    void source.return?.();
    finish();
  });
  try {
    for (let next = await source.next(); !next.done && !gone; next = await source.next()) {
      if (!raw.write(next.value)) {
        await new Promise<void>((resolve) => {
          raw.once("drain", resolve);
          raw.once("close", resolve);
        });
      }
    }
  } catch (error) {
    logError(error);
  } finally {
    if (!raw.writableEnded) raw.end();
    finish();
  }
  return reply;
}
