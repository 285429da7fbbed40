import { Readable } from "node:stream";
import type { Operation } from "@fleet/contracts";
import type { FastifyReply } from "fastify";
import { describeIssue, internal } from "../runtime/problems.ts";

/** Lines are written in chunks of about this many bytes, not one write per line. */
const CHUNK_BYTES = 16 * 1024;

/**
 * Streams an NDJSON operation's lines (`ndjson: true`): each checked against the operation's `output` and
 * written as one JSON object a line, as they are read, with backpressure (the source is asked for more
 * only as the client takes them, and stops when the client goes). The first line is read before the head
 * is written, so a source that cannot read at all still answers a problem; a failure after that is
 * logged and ends the stream early, without a final newline.
 */
export async function sendLines(
  reply: FastifyReply,
  op: Operation,
  lines: AsyncIterable<unknown>,
  logError: (error: unknown) => void,
): Promise<FastifyReply> {
  const encode = (value: unknown): string => {
    const line = op.output.safeParse(value);
    if (line.success) return `${JSON.stringify(line.data)}\n`;
    logError(
      new Error(`${op.id} streamed a line outside its contract: ${describeIssue(line.error.issues[0]!)}`),
    );
    throw internal();
  };
  const source = lines[Symbol.asyncIterator]();
  const first = await source.next();
  const head = first.done ? "" : encode(first.value);
  async function* chunks(): AsyncGenerator<string> {
    let pending = head;
    try {
      for (let next = first; !next.done; ) {
        next = await source.next();
        if (!next.done) pending += encode(next.value);
        if (pending.length >= CHUNK_BYTES || (next.done && pending !== "")) {
          yield pending;
          pending = "";
        }
      }
    } catch (error) {
      logError(error);
      throw error;
    } finally {
      await source.return?.();
    }
  }
  reply
    .code(op.successStatus)
    .headers({ ...op.headers, "content-type": "application/x-ndjson; charset=utf-8" });
  return reply.send(Readable.from(chunks(), { objectMode: false }));
}
