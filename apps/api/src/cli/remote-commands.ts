import type { OutputOf } from "@fleet/contracts";
import type { ApprovalGate } from "@fleet/contracts/approvals/approval-gate";
import type { approveApproval } from "@fleet/contracts/approvals/approve-approval";
import type { listFleets } from "@fleet/contracts/fleets/list-fleets";
import type { messageFleet } from "@fleet/contracts/fleets/message-fleet";
import type { resolveId } from "@fleet/contracts/ids/resolve-id";
import type { getMe } from "@fleet/contracts/users/get-me";
import type { listVisibleWorkspaces } from "@fleet/contracts/workspaces/list-visible-workspaces";
import { runConsoleUrl } from "../runtime/console-links.ts";
import { type ApiAnswer, CliError, problemLine, request, type SavedCredential } from "./api-client.ts";
import { listenForWebhooks } from "./webhooks-listen.ts";

/**
 * The commands a person runs after `fleetctl login`: the same /v1 routes the console calls, with the
 * saved credential, so the same scopes, quorum and first-answer rules hold. Each answers what it prints
 * (`text`) and what `--json` prints (the API's own answer).
 */
export interface Printed {
  json: unknown;
  text: string;
}

export type RemoteValues = Record<string, string | boolean | undefined>;

/** The commands this module runs, by their words before any id. */
export const remoteCommands = [
  "whoami",
  "fleets list",
  "send",
  "approvals list",
  "approve",
  "deny",
  "webhooks listen",
];

class Remote {
  constructor(
    readonly api: string,
    private readonly credential: SavedCredential,
  ) {}

  /** The API's answer when it is 2xx; otherwise its problem as a CliError. */
  async call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const answer: ApiAnswer<T> = await request<T>(this.api, method, path, {
      token: this.credential.session_token,
      ...(body === undefined ? {} : { body }),
    });
    if (answer.status >= 200 && answer.status < 300) return answer.body;
    throw new CliError(refusal(answer.status, answer.body as Record<string, unknown> | null));
  }
}

/** A refusal as one line; a gate answered before says by whom, as the inbox does. */
function refusal(status: number, body: Record<string, unknown> | null): string {
  if (body?.error_code === "UZ-APPROVAL-006" && typeof body.resolved_by === "string") {
    const request = typeof body.request_id === "string" ? ` (request_id ${body.request_id})` : "";
    return `already ${String(body.outcome)} by ${body.resolved_by}; the first answer stands [409 UZ-APPROVAL-006]${request}`;
  }
  if (status === 401)
    return `${problemLine(status, body)}; the saved credential is no longer valid: run fleetctl login again`;
  return problemLine(status, body);
}

function text(values: RemoteValues, name: string): string | undefined {
  const value = values[name];
  return typeof value === "string" && value.length > 0 ? value : undefined;
}

function required(values: RemoteValues, name: string, usage: string): string {
  const value = text(values, name);
  if (value === undefined) throw new CliError(`--${name} is required: ${usage}`);
  return value;
}

/**
 * `--workspace`; else the workspace the fleet or gate `id` belongs to (`GET /v1/ids/{id}`, the lookup the
 * console's links use); else the one workspace the caller may see. Several are named so the person can
 * choose.
 */
async function workspaceOf(remote: Remote, values: RemoteValues, id?: string): Promise<string> {
  const chosen = text(values, "workspace");
  if (chosen !== undefined) return chosen;
  if (id !== undefined) {
    const place = await remote.call<OutputOf<typeof resolveId>>("GET", `/v1/ids/${encodeURIComponent(id)}`);
    return place.workspace_id;
  }
  let page: OutputOf<typeof listVisibleWorkspaces>;
  try {
    page = await remote.call("GET", "/v1/workspaces?limit=100");
  } catch (error) {
    throw new CliError(
      `name the workspace with --workspace ID (listing them was refused: ${(error as Error).message})`,
    );
  }
  if (page.items.length === 1) return page.items[0]!.id;
  const names = page.items.map((item) => `${item.id} (${item.name})`).join(", ");
  throw new CliError(
    `name the workspace with --workspace ID; this tenant has ${page.items.length}: ${names}`,
  );
}

const when = (ms: number | null) => (ms === null ? "" : new Date(ms).toISOString().replace(/\.\d+Z$/, "Z"));

function gateLines(gates: ApprovalGate[]): string {
  if (gates.length === 0) return "No gates.";
  return gates
    .map(
      (gate) =>
        `${gate.gate_id}  ${gate.status.padEnd(9)} ${gate.fleet_name}: ${gate.proposed_action}  (blast radius ${gate.blast_radius}; times out ${when(gate.timeout_at)})`,
    )
    .join("\n");
}

/** Runs one of `remoteCommands`; `words` are the command line's words (`approve <gate id>`). */
export async function runRemote(
  words: string[],
  values: RemoteValues,
  api: string,
  credential: SavedCredential | null,
): Promise<Printed> {
  if (credential === null) throw new CliError("not signed in: run fleetctl login first");
  const remote = new Remote(api, credential);
  const command = words.slice(0, 2).join(" ");
  if (words[0] === "whoami") {
    const me = await remote.call<OutputOf<typeof getMe>>("GET", "/v1/users/me");
    return {
      json: { ...me, api_url: api },
      text: `${me.email} in ${me.tenant_name} (${me.tenant_id}) at ${api}\nscopes: ${me.scopes.join(" ")}`,
    };
  }
  if (command === "webhooks listen") {
    return listenForWebhooks(remote, {
      workspaceId: await workspaceOf(remote, values),
      events: text(values, "events"),
      fleetId: text(values, "fleet"),
      port: text(values, "port"),
      url: text(values, "url"),
      forwardTo: text(values, "forward-to"),
      json: values.json === true,
      print: (line) => console.log(line),
      // Ctrl-C (or a terminating signal) stops listening; the endpoint is deleted before fleetctl exits.
      stopped: new Promise((resolve) => {
        process.once("SIGINT", () => resolve());
        process.once("SIGTERM", () => resolve());
      }),
    });
  }
  if (command === "fleets list") {
    const workspace = await workspaceOf(remote, values);
    const page = await remote.call<OutputOf<typeof listFleets>>(
      "GET",
      `/v1/workspaces/${encodeURIComponent(workspace)}/fleets?limit=100`,
    );
    const lines = page.items.map((fleet) => `${fleet.id}  ${fleet.status.padEnd(7)} ${fleet.name}`);
    return { json: page, text: lines.length === 0 ? "No fleets." : lines.join("\n") };
  }
  if (words[0] === "send") {
    const usage = "fleetctl send --fleet ID --message TEXT [--workspace ID]";
    const fleet = required(values, "fleet", usage);
    const message = required(values, "message", usage);
    const workspace = await workspaceOf(remote, values, fleet);
    const sent = await remote.call<OutputOf<typeof messageFleet>>(
      "POST",
      `/v1/workspaces/${encodeURIComponent(workspace)}/fleets/${encodeURIComponent(fleet)}/messages`,
      { message },
    );
    const link =
      credential.console_url === undefined
        ? ""
        : `\nfollow the run: ${runConsoleUrl(credential.console_url, { workspaceId: workspace, fleetId: fleet.toLowerCase(), eventId: sent.event_id })}`;
    return { json: sent, text: `sent: event ${sent.event_id}${link}` };
  }
  if (command === "approvals list") {
    const workspace = await workspaceOf(remote, values);
    const status = text(values, "status") ?? "pending";
    const page = await remote.call<{ items: ApprovalGate[] }>(
      "GET",
      `/v1/workspaces/${encodeURIComponent(workspace)}/approvals?status=${encodeURIComponent(status)}&limit=100`,
    );
    return { json: page, text: gateLines(page.items) };
  }
  if (words[0] === "approve" || words[0] === "deny") {
    const gate = words[1];
    if (gate === undefined || words.length > 2)
      throw new CliError(`name one gate: fleetctl ${words[0]} GATE_ID [--reason TEXT] [--workspace ID]`);
    const workspace = await workspaceOf(remote, values, gate);
    const reason = text(values, "reason");
    const answer = await remote.call<OutputOf<typeof approveApproval>>(
      "POST",
      `/v1/workspaces/${encodeURIComponent(workspace)}/approvals/${encodeURIComponent(gate)}/${words[0]}`,
      reason === undefined ? {} : { reason },
    );
    const done =
      answer.outcome === "pending"
        ? `approval counted: ${answer.approvals.length} of ${answer.required_approvals}; the gate still waits`
        : `${answer.outcome}: gate ${answer.gate_id}`;
    return { json: answer, text: done };
  }
  throw new CliError(`unknown command: ${words.join(" ")}`);
}
