import { chmodSync, rmSync } from "node:fs";
import { createServer, request as httpRequest, type Server } from "node:http";
import { Problem } from "@fleet/contracts";
import type { Logger } from "pino";
import type { ServiceContext } from "../services/shared/context.ts";
import { runCommand, UsageError, type Values } from "./commands.ts";

/**
 * The server's operator channel while it owns an embedded database: `fleetctl` sends its command here
 * instead of opening the directory a second time (PGlite is one session; a second opener's statements
 * would interleave with the server's transactions). The command runs on the server's own services, so
 * its writes are serialised with the server's and its cache invalidations take effect at once. The
 * socket is a file readable by its owner only: the same trust as the data directory.
 */
export async function serveControlSocket(
  path: string,
  services: ServiceContext,
  log: Logger,
): Promise<Server> {
  rmSync(path, { force: true }); // a socket file left by a process that died
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", async () => {
      const answer = (status: number, body: unknown) => {
        response.writeHead(status, { "content-type": "application/json" });
        response.end(JSON.stringify(body));
      };
      try {
        if (request.method !== "POST" || request.url !== "/fleetctl")
          return answer(404, { error: "not found" });
        const { command, values } = JSON.parse(Buffer.concat(chunks).toString("utf8")) as {
          command: string;
          values: Values;
        };
        answer(200, { result: await runCommand(services, command, values) });
      } catch (error) {
        if (error instanceof Problem || error instanceof UsageError)
          return answer(400, { error: error.message, usage: error instanceof UsageError });
        log.error({ err: error }, "fleetctl command failed");
        answer(500, { error: "the command failed; see the server's log" });
      }
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(path, () => resolve());
  });
  chmodSync(path, 0o600);
  return server;
}

/** Sends one command to the server that holds the embedded directory. */
export function sendCommand(
  path: string,
  command: string,
  values: Values,
): Promise<{ status: number; body: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      {
        socketPath: path,
        path: "/fleetctl",
        method: "POST",
        headers: { "content-type": "application/json" },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () => {
          try {
            resolve({
              status: response.statusCode ?? 0,
              body: JSON.parse(Buffer.concat(chunks).toString("utf8")),
            });
          } catch (error) {
            reject(error);
          }
        });
      },
    );
    outgoing.on("error", reject);
    outgoing.end(JSON.stringify({ command, values }));
  });
}
