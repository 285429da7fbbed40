import { createServer } from "node:http";

/**
 * The ceiling: a bare node:http server answering every request with a fixed JSON body. Nothing the API
 * does per request can be cheaper than this on the same box.
 */
const body = JSON.stringify({ hello: "world" });
const headers = {
  "content-type": "application/json; charset=utf-8",
  "content-length": String(Buffer.byteLength(body)),
};

const server = createServer((_request, response) => {
  response.writeHead(200, headers);
  response.end(body);
});

server.listen(Number(process.env.PORT ?? 0), process.env.HOST ?? "127.0.0.1");
process.on("SIGTERM", () => process.exit(0));
