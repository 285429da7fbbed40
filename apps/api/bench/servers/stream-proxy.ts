import { Agent, createServer, request } from "node:http";

/**
 * The gateway's floor: a bare node:http proxy that forwards `POST /chat/completions` to the vendor at
 * UPSTREAM (an OpenAI base URL, e.g. http://127.0.0.1:PORT/v1) and pipes the answer back as it arrives,
 * over kept-alive connections. No auth, no database, no metering: what any stream relay must spend.
 */
const upstream = new URL(process.env.UPSTREAM ?? "http://127.0.0.1:1/v1");
const apiKey = process.env.UPSTREAM_KEY ?? "";
const agent = new Agent({ keepAlive: true, maxSockets: Number.POSITIVE_INFINITY });

const server = createServer((incoming, outgoing) => {
  if (incoming.method !== "POST") {
    outgoing.writeHead(200, { "content-type": "text/plain" });
    outgoing.end("ok");
    return;
  }
  const parts: Buffer[] = [];
  incoming.on("data", (part: Buffer) => parts.push(part));
  incoming.on("end", () => {
    const body = Buffer.concat(parts);
    const forwarded = request(
      {
        agent,
        host: upstream.hostname,
        port: upstream.port,
        method: "POST",
        path: `${upstream.pathname.replace(/\/$/, "")}/chat/completions`,
        headers: {
          "content-type": "application/json",
          "content-length": String(body.length),
          authorization: `Bearer ${apiKey}`,
        },
      },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, {
          "content-type": answer.headers["content-type"] ?? "application/json",
        });
        answer.pipe(outgoing);
      },
    );
    forwarded.on("error", () => {
      if (!outgoing.headersSent) outgoing.writeHead(502);
      outgoing.end();
    });
    forwarded.end(body);
  });
});

server.listen(Number(process.env.PORT ?? 0), process.env.HOST ?? "127.0.0.1");
process.on("SIGTERM", () => process.exit(0));
