import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { postPinned } from "./pinned-post.ts";

describe("postPinned", () => {
  const received: { host?: string; body: string }[] = [];
  const server = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk) => {
      body += chunk;
    });
    request.on("end", () => {
      received.push({ host: request.headers.host, body });
      response.writeHead(request.url === "/refuse" ? 503 : 204).end();
    });
  });
  let port = 0;
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("connects to the pinned address whatever the name resolves to, and keeps the name as Host", async () => {
    // `.invalid` never resolves: only the pin can reach the server.
    const url = new URL(`http://hooks.example.invalid:${port}/hook`);
    const status = await postPinned(
      url,
      '{"a":1}',
      { "content-type": "application/json" },
      {
        addresses: ["127.0.0.1"],
        timeoutMs: 2_000,
      },
    );
    expect(status).toBe(204);
    expect(received.at(-1)).toEqual({ host: `hooks.example.invalid:${port}`, body: '{"a":1}' });
  });

  it("answers a refusal's status, and rejects when the name does not resolve unpinned", async () => {
    const refused = await postPinned(
      new URL(`http://127.0.0.1:${port}/refuse`),
      "{}",
      {},
      {
        addresses: null,
        timeoutMs: 2_000,
      },
    );
    expect(refused).toBe(503);
    await expect(
      postPinned(
        new URL(`http://hooks.example.invalid:${port}/hook`),
        "{}",
        {},
        { addresses: null, timeoutMs: 2_000 },
      ),
    ).rejects.toThrow();
  });
});
