import type { Config } from "../../env.ts";
import { callVendor, VendorFailure } from "./vendor-http.ts";

type Slack = Config["connectors"]["slack"];

/**
 * Calls one Slack Web API method (`POST <base>/api/<method>`) and answers its JSON body when `ok`. The
 * base URL is operator configuration (FLEET_SLACK_BASE_URL), so the call is not pinned to checked public
 * addresses as a tenant-given URL's is; redirects are not followed. Never logs the token or the body.
 */
export async function callSlack(
  config: Config,
  method: string,
  body: { form?: Record<string, string>; json?: unknown; token?: string },
): Promise<Record<string, unknown>> {
  const slack: Slack = config.connectors.slack;
  const headers: Record<string, string> = { "user-agent": "fleet-control-plane/connectors" };
  if (body.token !== undefined) headers.authorization = `Bearer ${body.token}`;
  let payload: string;
  if (body.form !== undefined) {
    headers["content-type"] = "application/x-www-form-urlencoded";
    payload = new URLSearchParams(body.form).toString();
  } else {
    headers["content-type"] = "application/json; charset=utf-8";
    payload = JSON.stringify(body.json ?? {});
  }
  const { status, body: parsed } = await callVendor(config, `${slack.baseUrl}/api/${method}`, {
    method: "POST",
    headers,
    body: payload,
  });
  if (parsed === undefined) throw new VendorFailure("refused", `http_${status}`);
  const answer = (typeof parsed === "object" && parsed !== null ? parsed : {}) as Record<string, unknown>;
  if (answer.ok !== true) {
    const reason = typeof answer.error === "string" ? answer.error.slice(0, 64) : `http_${status}`;
    throw new VendorFailure("refused", reason.replace(/[^a-z0-9_.-]/gi, "_"));
  }
  return answer;
}

/** The vendor's consent page for a connect, with the signed state and where it sends the browser back. */
export function authorizeUrl(config: Config, state: string): string {
  const slack = config.connectors.slack;
  const url = new URL(`${slack.baseUrl}/oauth/v2/authorize`);
  url.searchParams.set("client_id", slack.clientId ?? "");
  url.searchParams.set("scope", BOT_SCOPES);
  url.searchParams.set("state", state);
  url.searchParams.set("redirect_uri", callbackUrl(config));
  return url.toString();
}

/** What the bot needs: read the messages addressed to it, and post and update its own. */
const BOT_SCOPES = "app_mentions:read,chat:write,channels:history,im:history";

/**
 * The vendor sends the browser back through the console's origin (whose proxy passes the callback to the
 * API): the browser binding's cookie and the console session live there, so the callback can see both.
 */
export function callbackUrl(config: Config): string {
  return `${config.consoleUrl}/v1/connectors/slack/callback`;
}

/** The token and team a consent's code is exchanged for. */
export interface Installation {
  accessToken: string;
  team: { id: string; name: string };
  botUserId: string | null;
}

/** Exchanges the code at the token endpoint (`oauth.v2.access`). */
export async function exchangeCode(config: Config, code: string): Promise<Installation> {
  const slack = config.connectors.slack;
  const answer = await callSlack(config, "oauth.v2.access", {
    form: {
      client_id: slack.clientId ?? "",
      client_secret: slack.clientSecret ?? "",
      code,
      redirect_uri: callbackUrl(config),
    },
  });
  const team = answer.team as { id?: unknown; name?: unknown } | undefined;
  if (typeof answer.access_token !== "string" || typeof team?.id !== "string")
    throw new VendorFailure("refused", "malformed_token_response");
  return {
    accessToken: answer.access_token,
    team: {
      id: team.id.slice(0, 64),
      name: typeof team.name === "string" ? team.name.slice(0, 200) : team.id,
    },
    botUserId: typeof answer.bot_user_id === "string" ? answer.bot_user_id.slice(0, 64) : null,
  };
}

/** Shows a message to one user of a channel only (`chat.postEphemeral`): a click's refusal, a link. */
export async function tellEphemerally(
  config: Config,
  token: string,
  message: { channel: string; user: string; text: string },
): Promise<void> {
  await callSlack(config, "chat.postEphemeral", { token, json: message });
}
