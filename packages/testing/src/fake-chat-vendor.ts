import { createHmac, randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";

/**
 * A local fake of the chat vendor (Slack's protocol, as much as the connector speaks): the consent page
 * and OAuth token exchange, `auth.test`, `chat.postMessage`, `chat.update` and `chat.postEphemeral`, token
 * revocation, and signed event and interaction deliveries sent to the API; `GET /_fake/ephemeral` lists what
 * was shown ephemerally. Listens on 127.0.0.1; nothing here touches the
 * internet. Used by the API tests, the bench and the browser suite.
 */
export interface PostedMessage {
  channel: string;
  text: string;
  thread_ts?: string;
  blocks?: unknown[];
  ts: string;
  token: string;
}

export interface UpdatedMessage {
  channel: string;
  ts: string;
  text: string;
  blocks?: unknown[];
  token: string;
}

/** A message shown to one user only (`chat.postEphemeral`). */
export interface EphemeralMessage {
  channel: string;
  user: string;
  text: string;
  token: string;
}

type Failure = "error" | "server_error" | "hang";

export interface FakeChatVendor {
  url: string;
  clientId: string;
  clientSecret: string;
  signingSecret: string;
  posted: PostedMessage[];
  updated: UpdatedMessage[];
  ephemeral: EphemeralMessage[];
  /** Calls per method, failed ones included. */
  calls: Map<string, number>;
  /**
   * What a consent in the browser would do: mints a code for the authorize URL's state and answers the
   * callback URL the vendor sends the browser to (with `team` when given, else a fresh team).
   */
  consent(authorizeUrl: string, team?: { id: string; name: string }): string;
  /** The vendor revokes a token (as an uninstall does): later calls with it answer `token_revoked`. */
  revoke(token: string): void;
  /** Every token issued, newest last. */
  tokens: string[];
  /** The next `count` calls of `method` fail this way. */
  failNext(method: string, count: number, failure: Failure): void;
  /** Resolves once `predicate` holds over what was posted and updated (polls; rejects after `timeoutMs`). */
  waitFor(predicate: () => boolean, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

export async function startFakeChatVendor(): Promise<FakeChatVendor> {
  const clientId = `cid-${randomBytes(4).toString("hex")}`;
  const clientSecret = randomBytes(16).toString("hex");
  const signingSecret = randomBytes(16).toString("hex");
  const codes = new Map<string, { redirectUri: string; team: { id: string; name: string } }>();
  const tokens = new Map<string, { team: { id: string; name: string }; revoked: boolean }>();
  const failures = new Map<string, Failure[]>();
  const hanging: ServerResponse[] = [];
  let teamCounter = 0;
  let tsCounter = 0;
  const vendor: FakeChatVendor = {
    url: "",
    clientId,
    clientSecret,
    signingSecret,
    posted: [],
    updated: [],
    ephemeral: [],
    calls: new Map(),
    tokens: [],
    consent(authorizeUrl, team) {
      const url = new URL(authorizeUrl);
      const redirectUri = url.searchParams.get("redirect_uri") ?? "";
      const code = `code-${randomBytes(8).toString("hex")}`;
      codes.set(code, {
        redirectUri,
        team: team ?? {
          id: `T${process.pid}x${++teamCounter}x${randomBytes(3).toString("hex")}`,
          name: "Fake Team",
        },
      });
      const back = new URL(redirectUri);
      back.searchParams.set("code", code);
      back.searchParams.set("state", url.searchParams.get("state") ?? "");
      return back.toString();
    },
    revoke(token) {
      const held = tokens.get(token);
      if (held !== undefined) held.revoked = true;
    },
    failNext(method, count, failure) {
      failures.set(method, [...(failures.get(method) ?? []), ...Array(count).fill(failure)]);
    },
    async waitFor(predicate, timeoutMs = 15_000) {
      const deadline = Date.now() + timeoutMs;
      while (!predicate()) {
        if (Date.now() > deadline) throw new Error("the fake vendor never saw what was awaited");
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
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

  async function handle(request: IncomingMessage, response: ServerResponse) {
    const url = new URL(request.url ?? "/", "http://fake");
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString();
    if (request.method === "GET" && url.pathname === "/oauth/v2/authorize") {
      const allow = vendor.consent(url.toString());
      const deny = new URL(url.searchParams.get("redirect_uri") ?? "");
      deny.searchParams.set("error", "access_denied");
      deny.searchParams.set("state", url.searchParams.get("state") ?? "");
      response.writeHead(200, { "content-type": "text/html; charset=utf-8" });
      response.end(
        `<!doctype html><title>Fake chat vendor: allow access?</title><h1>Allow Fleet Control Plane to join Fake Team?</h1>` +
          `<a id="allow" href="${escapeHtml(allow)}">Allow</a> <a id="deny" href="${escapeHtml(deny.toString())}">Cancel</a>`,
      );
      return;
    }
    if (request.method === "GET" && url.pathname === "/_fake/ephemeral") {
      // What each user was shown ephemerally, for the browser suite, whose vendor runs in its global setup.
      return answer(
        response,
        200,
        vendor.ephemeral.map(({ channel, user, text }) => ({ channel, user, text })),
      );
    }
    const method = url.pathname.startsWith("/api/") ? url.pathname.slice(5) : null;
    if (request.method !== "POST" || method === null)
      return answer(response, 404, { ok: false, error: "unknown_method" });
    vendor.calls.set(method, (vendor.calls.get(method) ?? 0) + 1);
    const failure = failures.get(method)?.shift();
    if (failure === "hang") {
      hanging.push(response);
      return;
    }
    if (failure === "server_error") return answer(response, 500, { ok: false, error: "internal_error" });
    if (failure === "error") return answer(response, 200, { ok: false, error: "fatal_error" });
    if (method === "oauth.v2.access") {
      const form = new URLSearchParams(raw);
      const issued = codes.get(form.get("code") ?? "");
      if (form.get("client_id") !== clientId || form.get("client_secret") !== clientSecret)
        return answer(response, 200, { ok: false, error: "invalid_client_id" });
      if (issued === undefined || issued.redirectUri !== form.get("redirect_uri"))
        return answer(response, 200, { ok: false, error: "invalid_code" });
      codes.delete(form.get("code") ?? "");
      const token = `xoxb-${randomBytes(12).toString("hex")}`;
      tokens.set(token, { team: issued.team, revoked: false });
      vendor.tokens.push(token);
      return answer(response, 200, {
        ok: true,
        access_token: token,
        token_type: "bot",
        scope: "chat:write",
        bot_user_id: "UBOT",
        app_id: "AFAKE",
        team: issued.team,
      });
    }
    const token = (request.headers.authorization ?? "").replace(/^Bearer /, "");
    const held = tokens.get(token);
    if (held === undefined) return answer(response, 200, { ok: false, error: "invalid_auth" });
    if (held.revoked) return answer(response, 200, { ok: false, error: "token_revoked" });
    if (method === "auth.test")
      return answer(response, 200, {
        ok: true,
        team: held.team.name,
        team_id: held.team.id,
        user_id: "UBOT",
      });
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(raw) as Record<string, unknown>;
    } catch {
      return answer(response, 200, { ok: false, error: "invalid_json" });
    }
    if (method === "chat.postMessage") {
      const ts = `${Math.floor(Date.now() / 1000)}.${String(++tsCounter).padStart(6, "0")}`;
      vendor.posted.push({ ...(body as Omit<PostedMessage, "ts" | "token">), ts, token });
      return answer(response, 200, { ok: true, channel: body.channel, ts });
    }
    if (method === "chat.postEphemeral") {
      vendor.ephemeral.push({ ...(body as Omit<EphemeralMessage, "token">), token });
      return answer(response, 200, { ok: true, message_ts: `${Math.floor(Date.now() / 1000)}.000000` });
    }
    if (method === "chat.update") {
      vendor.updated.push({ ...(body as Omit<UpdatedMessage, "token">), token });
      return answer(response, 200, { ok: true, channel: body.channel, ts: body.ts });
    }
    return answer(response, 200, { ok: false, error: "unknown_method" });
  }

  const server: Server = createServer((request, response) => {
    handle(request, response).catch(() => answer(response, 500, { ok: false, error: "internal_error" }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  vendor.url = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
  return vendor;
}

function escapeHtml(text: string): string {
  return text.replaceAll("&", "&amp;").replaceAll('"', "&quot;").replaceAll("<", "&lt;");
}

/** The environment that points an API at this vendor. */
export function vendorEnv(vendor: FakeChatVendor): Record<string, string> {
  return {
    FLEET_SLACK_CLIENT_ID: vendor.clientId,
    FLEET_SLACK_CLIENT_SECRET: vendor.clientSecret,
    FLEET_SLACK_SIGNING_SECRET: vendor.signingSecret,
    FLEET_SLACK_BASE_URL: vendor.url,
    // Long enough for a loaded test machine, short enough for the tests of a vendor that never answers.
    FLEET_CONNECTOR_DEADLINE_MS: "4000",
  };
}

/** Signs a delivery as the vendor does: `v0=<hex HMAC-SHA256(signing secret, "v0:{ts}:{body}")>`. */
export function signDelivery(signingSecret: string, timestamp: number, body: string): string {
  return `v0=${createHmac("sha256", signingSecret).update(`v0:${timestamp}:${body}`).digest("hex")}`;
}

/** Sends a signed delivery (an event envelope, or an interaction) to the API's events ingress. */
export async function deliver(
  vendor: FakeChatVendor,
  apiUrl: string,
  payload: unknown,
  options: { offsetSeconds?: number; tamper?: boolean; signature?: string } = {},
): Promise<{ status: number; body: Record<string, unknown> }> {
  // Interactions (`{payload: "<json>"}`) go form-encoded, as the vendor sends them; events as JSON.
  const form =
    typeof payload === "object" &&
    payload !== null &&
    Object.keys(payload).length === 1 &&
    typeof (payload as { payload?: unknown }).payload === "string";
  const body = form
    ? new URLSearchParams({ payload: (payload as { payload: string }).payload }).toString()
    : JSON.stringify(payload);
  const timestamp = Math.floor(Date.now() / 1000) + (options.offsetSeconds ?? 0);
  const signature = options.signature ?? signDelivery(vendor.signingSecret, timestamp, body);
  const sent = options.tamper ? (form ? `${body}%20` : body.replace(/}$/, ',"x":1}')) : body;
  const response = await fetch(`${apiUrl}/v1/connectors/slack/events`, {
    method: "POST",
    headers: {
      "content-type": form ? "application/x-www-form-urlencoded" : "application/json",
      "x-slack-request-timestamp": String(timestamp),
      "x-slack-signature": signature,
    },
    body: sent,
  });
  const text = await response.text();
  return { status: response.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
}
