import { createServer, type IncomingHttpHeaders, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * How the receiver answers one delivery: a status (2xx, 500, 410, …), `slow` (a 200 after `delayMs`, for a
 * sender's timeout), or `close` (the connection dropped before any answer).
 */
export type ReceiverAnswer = number | { slow: number } | "close";

/** One delivery as it arrived: headers, the raw body (what a signature covers), and what was answered. */
export interface ReceivedDelivery {
  headers: IncomingHttpHeaders;
  body: string;
  path: string;
  answered: ReceiverAnswer;
}

/**
 * A local receiver of outgoing webhooks for tests and benches: it records every POST and answers as told.
 * `answerNext` queues answers for the next deliveries; once they are spent it answers `otherwise` (200 by
 * default). Listens on 127.0.0.1; nothing here touches the internet.
 */
export interface WebhookReceiver {
  /** `http://127.0.0.1:<port>/hooks`. */
  url: string;
  received: ReceivedDelivery[];
  answerNext(...answers: ReceiverAnswer[]): void;
  /** What every delivery past the queued answers gets. */
  otherwise: ReceiverAnswer;
  /** Resolves with the first delivery (from `from` on) that `match` accepts, or rejects after `timeoutMs`. */
  waitFor(
    match: (delivery: ReceivedDelivery) => boolean,
    timeoutMs?: number,
    from?: number,
  ): Promise<ReceivedDelivery>;
  close(): Promise<void>;
}

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const queued: ReceiverAnswer[] = [];
  const held: ServerResponse[] = [];
  const waiters = new Set<() => void>();
  const receiver: WebhookReceiver = {
    url: "",
    received: [],
    otherwise: 200,
    answerNext: (...answers) => void queued.push(...answers),
    waitFor(match, timeoutMs = 10_000, from = 0) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = receiver.received.slice(from).find(match);
          if (found === undefined) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve(found);
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(
            new Error(`no matching delivery within ${timeoutMs} ms (${receiver.received.length} received)`),
          );
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    close: () =>
      new Promise((resolve) => {
        for (const response of held) response.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const answer = queued.shift() ?? receiver.otherwise;
      receiver.received.push({
        headers: request.headers,
        body: Buffer.concat(chunks).toString("utf8"),
        path: request.url ?? "/",
        answered: answer,
      });
      for (const waiter of [...waiters]) waiter();
      if (answer === "close") {
        request.socket.destroy();
      } else if (typeof answer === "object") {
        held.push(response);
        setTimeout(() => response.writeHead(200).end("late"), answer.slow).unref();
      } else {
        response.writeHead(answer, { "content-type": "text/plain" }).end(`answered ${answer}`);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  return receiver;
}
