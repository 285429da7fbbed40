import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { hostname } from "node:os";
import type { OutputOf } from "@fleet/contracts";
import type { createWebhookEndpoint } from "@fleet/contracts/webhook-endpoints/create-webhook-endpoint";
import type { listWebhookEventTypes } from "@fleet/contracts/webhook-endpoints/list-webhook-event-types";
import { Webhook } from "standardwebhooks";
import { CliError } from "./api-client.ts";

/** The calls `webhooks listen` makes with the saved credential (remote-commands.ts's `Remote`). */
export interface ListenApi {
  call<T>(method: string, path: string, body?: unknown): Promise<T>;
}

export interface ListenOptions {
  workspaceId: string;
  /** Comma-separated event types; none: every type of the catalogue. */
  events?: string | undefined;
  fleetId?: string | undefined;
  /** The local port to listen on; 0 or none: any free one. */
  port?: string | undefined;
  /** The URL the endpoint is registered with, when the API cannot reach 127.0.0.1 (a tunnel's). */
  url?: string | undefined;
  /** Where each verified delivery is passed on, its answer's status relayed. */
  forwardTo?: string | undefined;
  /** Print each delivery as one JSON line (its payload, and whether its signature verified). */
  json: boolean;
  /** What the command prints as it goes. */
  print: (line: string) => void;
  /** Resolves when the person stops it (Ctrl-C); the tests stop it with a signal too. */
  stopped: Promise<void>;
}

/** The largest delivery body read: the outbox sends at most 256 KiB of data. */
const BODY_MAX = 1024 * 1024;

/**
 * `fleetctl webhooks listen`, as `stripe listen` is for Stripe: subscribes a local URL of this machine to
 * the workspace's events (an endpoint named for this host and process), prints each delivery as it
 * arrives with whether its signature verifies against the endpoint's secret, optionally passes it on to
 * `--forward-to`, and deletes the endpoint when stopped. The API accepts a local http URL only in dev mode;
 * against a deployed API, `--url` names a public https URL that reaches this port (a tunnel).
 */
export async function listenForWebhooks(api: ListenApi, options: ListenOptions) {
  const catalogue = await api.call<OutputOf<typeof listWebhookEventTypes>>("GET", "/v1/webhook-event-types");
  const types = options.events
    ? options.events
        .split(",")
        .map((type) => type.trim())
        .filter((type) => type.length > 0)
    : catalogue.items.map((item) => item.type);
  const port = options.port === undefined ? 0 : Number(options.port);
  if (!Number.isInteger(port) || port < 0 || port > 65_535)
    throw new CliError("--port must be a port number");

  let verifier: Webhook | null = null;
  let received = 0;
  const server = createServer((request, response) => {
    void receive(request, response).catch(() => response.writeHead(500).end());
  });
  const receive = async (request: IncomingMessage, response: ServerResponse) => {
    const body = await readBody(request);
    if (body === null) {
      response.writeHead(413).end();
      return;
    }
    received += 1;
    const headers = Object.fromEntries(
      ["webhook-id", "webhook-timestamp", "webhook-signature"].map((name) => [
        name,
        String(request.headers[name] ?? ""),
      ]),
    );
    let verified = false;
    try {
      verifier?.verify(body, headers);
      verified = verifier !== null;
    } catch {
      verified = false;
    }
    let payload: { id?: string; type?: string; timestamp?: string; data?: unknown } = {};
    try {
      payload = JSON.parse(body) as typeof payload;
    } catch {
      // printed as it came
    }
    let status = verified ? 200 : 400;
    if (verified && options.forwardTo !== undefined) status = await forward(options.forwardTo, body, request);
    if (options.json) {
      options.print(JSON.stringify({ verified, status, webhook_id: headers["webhook-id"], payload }));
    } else {
      const at = new Date().toISOString().replace(/\.\d+Z$/, "Z");
      const mark = verified ? "signature ok" : "SIGNATURE DOES NOT VERIFY";
      options.print(
        `${at}  ${payload.type ?? "?"}  ${payload.id ?? headers["webhook-id"]}  ${mark}  → ${status}`,
      );
    }
    response
      .writeHead(status, { "content-type": "text/plain" })
      .end(verified ? "ok" : "signature does not verify");
  };
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", resolve);
  });
  const local = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;

  let endpoint: OutputOf<typeof createWebhookEndpoint>;
  try {
    endpoint = await api.call("POST", `/v1/workspaces/${options.workspaceId}/webhook-endpoints`, {
      url: options.url ?? local,
      event_types: types,
      ...(options.fleetId === undefined ? {} : { fleet_id: options.fleetId }),
      description: `fleetctl webhooks listen on ${hostname()} (pid ${process.pid})`,
    });
  } catch (error) {
    server.close();
    const refused = error instanceof CliError && error.message.includes("UZ-WEBHOOK-008");
    throw refused && options.url === undefined
      ? new CliError(
          `${error.message}; the API takes a local URL only in dev mode: against this API, run a tunnel to ${local} and give its public https URL with --url`,
        )
      : error;
  }
  verifier = new Webhook(endpoint.secret);
  const path = `/v1/workspaces/${options.workspaceId}/webhook-endpoints/${endpoint.id}`;
  options.print(
    options.json
      ? JSON.stringify({ listening: local, endpoint_id: endpoint.id, event_types: endpoint.event_types })
      : `Listening on ${local} for ${endpoint.event_types.join(", ")} (endpoint ${endpoint.id}); Ctrl-C stops and deletes it.`,
  );
  await options.stopped;
  server.closeAllConnections();
  server.close();
  await api.call("DELETE", path).catch(() => {});
  return {
    json: { stopped: true, endpoint_id: endpoint.id, received },
    text: `Stopped after ${received} ${received === 1 ? "delivery" : "deliveries"}; endpoint ${endpoint.id} deleted.`,
  };
}

/** The request's body as text, or null past BODY_MAX. */
async function readBody(request: IncomingMessage): Promise<string | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > BODY_MAX) return null;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** Passes a verified delivery on with its headers; answers the status to relay (502 when unreachable). */
async function forward(target: string, body: string, request: IncomingMessage): Promise<number> {
  const headers: Record<string, string> = { "content-type": "application/json" };
  for (const name of ["webhook-id", "webhook-timestamp", "webhook-signature"]) {
    const value = request.headers[name];
    if (typeof value === "string") headers[name] = value;
  }
  try {
    const answer = await fetch(target, {
      method: "POST",
      headers,
      body,
      signal: AbortSignal.timeout(10_000),
    });
    await answer.arrayBuffer();
    return answer.status;
  } catch {
    return 502;
  }
}
