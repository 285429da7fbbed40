import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";

/**
 * A local fake of the API-key connector's vendor (Datadog's key check, as much as the connector speaks):
 * `GET /api/v1/validate` with the key in `DD-API-KEY` answers 200 `{valid: true}` for a key it issued and
 * 403 `{errors: ["Forbidden"]}` for any other. `POST /_fake/keys` mints a key (`{key}`), for tests in
 * another process (the browser suite's workers). Listens on 127.0.0.1; nothing here touches the internet.
 */
export interface FakeKeyVendor {
  url: string;
  /** Mints a key the vendor accepts. */
  issueKey(): string;
  /** The vendor revokes a key: later checks with it answer 403. */
  revoke(key: string): void;
  /** Every key the vendor was asked about, in order (to check what the service sent). */
  checked: string[];
  /** The next `count` checks fail this way: 500, or no answer at all. */
  failNext(count: number, failure: "server_error" | "hang"): void;
  close(): Promise<void>;
}

export async function startFakeKeyVendor(): Promise<FakeKeyVendor> {
  const keys = new Set<string>();
  const failures: ("server_error" | "hang")[] = [];
  const hanging: ServerResponse[] = [];
  const vendor: FakeKeyVendor = {
    url: "",
    issueKey() {
      const key = randomBytes(16).toString("hex");
      keys.add(key);
      return key;
    },
    revoke(key) {
      keys.delete(key);
    },
    checked: [],
    failNext(count, failure) {
      for (let i = 0; i < count; i += 1) failures.push(failure);
    },
    close: () =>
      new Promise((resolve) => {
        for (const response of hanging) response.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };

  function answer(response: ServerResponse, status: number, body: unknown) {
    response.writeHead(status, { "content-type": "application/json" });
    response.end(JSON.stringify(body));
  }

  function handle(request: IncomingMessage, response: ServerResponse) {
    const url = new URL(request.url ?? "/", "http://fake");
    if (request.method === "POST" && url.pathname === "/_fake/keys")
      return answer(response, 201, { key: vendor.issueKey() });
    if (request.method !== "GET" || url.pathname !== "/api/v1/validate")
      return answer(response, 404, { errors: ["Not found"] });
    const header = request.headers["dd-api-key"];
    const key = typeof header === "string" ? header : "";
    vendor.checked.push(key);
    const failure = failures.shift();
    if (failure === "hang") {
      hanging.push(response);
      return;
    }
    if (failure === "server_error") return answer(response, 500, { errors: ["Internal Server Error"] });
    if (!keys.has(key)) return answer(response, 403, { errors: ["Forbidden"] });
    return answer(response, 200, { valid: true });
  }

  const server: Server = createServer((request, response) => {
    request.resume();
    request.on("end", () => handle(request, response));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  vendor.url = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
  return vendor;
}

/** The environment that points an API at this vendor. */
export function keyVendorEnv(vendor: FakeKeyVendor): Record<string, string> {
  return { FLEET_DATADOG_BASE_URL: vendor.url };
}
