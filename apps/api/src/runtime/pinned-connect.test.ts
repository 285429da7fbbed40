import { type Agent, createServer, type IncomingMessage, request, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PinnedAgentPool, pinnedLookup } from "./pinned-connect.ts";

describe("pinnedLookup", () => {
  const ask = (addresses: string[], options: { family?: number; all?: boolean }) =>
    new Promise((resolve) => {
      pinnedLookup(addresses)("any.example.com", options, (error, address, family) =>
        resolve(error ? (error as NodeJS.ErrnoException).code : { address, family }),
      );
    });

  it("answers only the checked addresses, all or the first, of the family asked for", async () => {
    const both = ["93.184.215.14", "2606:2800:21f:cb07:6820:80da:af6b:8b2c"];
    expect(await ask(both, { all: true })).toEqual({
      address: [
        { address: "93.184.215.14", family: 4 },
        { address: "2606:2800:21f:cb07:6820:80da:af6b:8b2c", family: 6 },
      ],
      family: undefined,
    });
    expect(await ask(both, {})).toEqual({ address: "93.184.215.14", family: 4 });
    expect(await ask(both, { family: 6 })).toEqual({
      address: "2606:2800:21f:cb07:6820:80da:af6b:8b2c",
      family: 6,
    });
    expect(await ask(["93.184.215.14"], { family: 6 })).toBe("ENOTFOUND");
  });
});

describe("PinnedAgentPool", () => {
  const received: (string | undefined)[] = [];
  /** Streams the server is holding open: each sent its first piece and waits to be let go. */
  const held: ServerResponse[] = [];
  const server = createServer((request, response) => {
    received.push(request.headers.host);
    response.writeHead(200, { "content-type": "text/plain" });
    if (request.url === "/stream") {
      response.write("first piece\n");
      held.push(response);
    } else response.end("whole");
  });
  let port = 0;
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    for (const response of held) response.end();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  // `.invalid` never resolves: only the pin can reach the server.
  const url = (path: string) => `http://gateway.example.invalid:${port}${path}`;

  /** A GET through `agent` (none: the process's own), answered once its head arrives. */
  const get = (path: string, agent?: Agent) =>
    new Promise<IncomingMessage>((resolve, reject) => {
      request(url(path), agent === undefined ? {} : { agent }, resolve)
        .on("error", reject)
        .end();
    });

  async function text(response: IncomingMessage): Promise<string> {
    let body = "";
    for await (const piece of response) body += String(piece);
    return body;
  }

  it("connects only to the pinned addresses, keeps the name as Host, and keeps one agent pair a set", async () => {
    const pool = new PinnedAgentPool();
    expect(await text(await get("/", pool.for(["127.0.0.1"]).http))).toBe("whole");
    expect(await text(await get("/", pool.for(["127.0.0.1"]).http))).toBe("whole");
    expect(received.at(-1)).toBe(`gateway.example.invalid:${port}`);
    // One pair per address set, whatever their order: its kept-alive connections serve later calls.
    expect(pool.for(["127.0.0.1", "::1"])).toBe(pool.for(["::1", "127.0.0.1"]));
    expect(pool.size).toBe(2);
    await expect(get("/")).rejects.toThrow();
    pool.close();
  });

  it("passes a stream on piece by piece, and a dropped pair finishes the stream it carries", async () => {
    const pool = new PinnedAgentPool(2);
    const streamed = await get("/stream", pool.for(["127.0.0.1"]).http);
    const pieces = streamed[Symbol.asyncIterator]();
    // The first piece arrives while the server still holds the rest: nothing waits for the whole body.
    expect(String((await pieces.next()).value)).toBe("first piece\n");
    // Two other address sets push the stream's pair out of the pool.
    pool.for(["127.0.0.2"]);
    pool.for(["127.0.0.3"]);
    expect(pool.size).toBe(2);
    held.shift()!.end("the rest\n");
    let rest = "";
    for (let next = await pieces.next(); !next.done; next = await pieces.next()) rest += String(next.value);
    expect(rest).toBe("the rest\n");
    pool.close();
  });
});
