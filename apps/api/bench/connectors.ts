import { randomBytes, randomUUID } from "node:crypto";
import { chatLinks, memberships, openDatabase, runners } from "@fleet/db";
import {
  deliver,
  type FakeChatVendor,
  startFakeChatVendor,
  vendorEnv,
} from "@fleet/testing/fake-chat-vendor";
import { mintSecret, RUNNER_TOKEN_PREFIX, sha256Hex } from "../src/auth/tokens.ts";
import { newId } from "../src/runtime/ids.ts";
import type { SeededDatabase } from "./databases.ts";
import { apiServerSpec, type Server, startServer, stopProcess, waitUntilReady } from "./processes.ts";

/**
 * Issue 16 §3: the chat connector against a local fake vendor. Per sample: a signed `app_mention` is
 * delivered, the bench's runner (already long-polling) leases the chat event and reports an answer, and
 * the time is taken when the vendor receives the answer in the thread (`chat.postMessage`). Then gates:
 * a gate is opened on a held lease, its message (with buttons) reaches the vendor, and a signed click on
 * Approve is timed until its answer (the gate decided) and until the vendor has the updated message.
 * Target: p99 under 1 s for both.
 */
export interface ConnectorFigures {
  database: string;
  samples: number;
  chatToAnswer: Latencies;
  gateToPosted: Latencies;
  clickToDecided: Latencies;
  clickToUpdated: Latencies;
}

interface Latencies {
  p50: number;
  p99: number;
  max: number;
}

const LABEL = "connectors-bench";
const CHANNEL = "CBENCH";

function latencies(values: number[]): Latencies {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
  return { p50: at(50), p99: at(99), max: sorted.at(-1) ?? NaN };
}

async function send(
  base: string,
  method: string,
  path: string,
  token?: string,
  body?: unknown,
  cookie?: string,
) {
  const headers: Record<string, string> = {};
  if (cookie !== undefined) headers.cookie = cookie;
  if (token !== undefined) headers.authorization = `Bearer ${token}`;
  if (body !== undefined) headers["content-type"] = "application/json";
  const response = await fetch(`${base}${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    redirect: "manual",
  });
  const text = await response.text();
  let parsed: Record<string, unknown> = {};
  try {
    parsed = text.length > 0 ? (JSON.parse(text) as Record<string, unknown>) : {};
  } catch {}
  return { status: response.status, body: parsed, setCookie: response.headers.getSetCookie() };
}

function expectStatus(answer: { status: number; body: unknown }, status: number, what: string) {
  if (answer.status !== status)
    throw new Error(`${what} answered ${answer.status}: ${JSON.stringify(answer.body).slice(0, 300)}`);
}

/** A runner of the bench's own label, written to the store before the server holds it (PGlite admits one opener). */
async function seedRunner(db: SeededDatabase): Promise<string> {
  const database = await openDatabase(db.url, { max: 1 });
  try {
    const now = Date.now();
    const token = mintSecret(RUNNER_TOKEN_PREFIX);
    await database.db.insert(runners).values({
      id: newId(now),
      hostId: "connectors-bench",
      tokenHash: sha256Hex(token),
      labels: [LABEL],
      createdAt: now,
      updatedAt: now,
      lastHeartbeatAt: now,
    });
    return token;
  } finally {
    await database.close();
  }
}

/**
 * Links the bench's chat user to the tenant's owner, written to the store before the server holds it: a
 * click decides a gate only for a linked member, and the bench has no console to redeem a link in.
 */
async function seedChatLink(db: SeededDatabase, teamId: string): Promise<void> {
  const database = await openDatabase(db.url, { max: 1 });
  try {
    const [owner] = await database.db.select().from(memberships).limit(1);
    await database.db.insert(chatLinks).values({
      id: newId(Date.now()),
      tenantId: owner!.tenantId,
      userId: owner!.userId,
      provider: "slack",
      teamId,
      chatUserId: "UBENCH",
      createdAt: Date.now(),
    });
  } finally {
    await database.close();
  }
}

async function waitFor(predicate: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setImmediate(resolve));
  }
}

export async function benchConnectors(
  db: SeededDatabase,
  database: string,
  options: { apiDir: string; logDir: string; samples: number },
  progress: (message: string) => void,
): Promise<ConnectorFigures> {
  const runnerToken = await seedRunner(db);
  const team = { id: `TBENCH${Date.now()}`, name: "Bench team" };
  await seedChatLink(db, team.id);
  const vendor: FakeChatVendor = await startFakeChatVendor();
  let server: Server | null = null;
  try {
    server = await startServer(
      apiServerSpec(`API connectors (${database})`, {
        apiDir: options.apiDir,
        logDir: options.logDir,
        env: {
          DATABASE_URL: db.url,
          LOG_LEVEL: "warn",
          FLEET_RATE_LIMITS: "false",
          // Tokens are sealed by the vault, which needs a master key on PostgreSQL.
          FLEET_MASTER_KEY: randomBytes(32).toString("base64"),
          ...vendorEnv(vendor),
        },
      }),
    );
    await waitUntilReady(server, "/readyz", { timeoutMs: 120_000 });
    const api = server.baseUrl;
    const workspaces = await send(api, "GET", "/v1/tenants/me/workspaces", db.apiKey);
    const workspaceId = (workspaces.body.items as { id: string }[])[0]!.id;
    const ws = `/v1/workspaces/${workspaceId}`;
    const entry = await send(api, "POST", `${ws}/fleet-libraries`, db.apiKey, {
      definition: `---\nname: Chat bench\nrequires:\n  runner_labels: [${LABEL}]\n---\nAnswer in the thread.\n`,
    });
    expectStatus(entry, 201, "library entry");
    const fleet = await send(api, "POST", `${ws}/fleets`, db.apiKey, { tenant_library_id: entry.body.id });
    expectStatus(fleet, 201, "fleet install");
    const started = await send(api, "POST", `${ws}/connectors/slack/connect`, db.apiKey);
    expectStatus(started, 200, "connect");
    const callback = new URL(vendor.consent(started.body.authorize_url as string, team));
    // The browser that started the connect: its binding cookie, signed in (here with the key) as the starter.
    const binding = started.setCookie[0]!.split(";")[0]!;
    const cookie = `fleet_session=${db.apiKey}; ${binding}`;
    const path = `${callback.pathname}${callback.search}`;
    expectStatus(await send(api, "GET", path, undefined, undefined, cookie), 303, "callback");
    expectStatus(
      await send(api, "PUT", `${ws}/connectors/slack/routes/${CHANNEL}`, db.apiKey, {
        fleet_id: fleet.body.fleet_id,
      }),
      200,
      "route",
    );

    let counter = 0;
    const mention = (text: string) => {
      const ts = `${Math.floor(Date.now() / 1000)}.${String(++counter).padStart(6, "0")}`;
      return {
        type: "event_callback",
        team_id: team.id,
        event_id: `EvBench${Date.now()}x${counter}`,
        event: { type: "app_mention", user: "UBENCH", text: `<@UBOT> ${text}`, ts, channel: CHANNEL },
      };
    };
    const acquire = () =>
      send(api, "POST", "/v1/runners/me/leases", runnerToken, { wait_ms: 10_000 }).then((answer) => {
        expectStatus(answer, 200, "acquire");
        return answer.body.lease as { lease_id: string; event_id: string; fencing_token: number };
      });

    progress(`${database}: chat event → answer in the thread, ${options.samples} samples`);
    const chat: number[] = [];
    for (let i = 0; i < options.samples; i++) {
      const answer = `bench answer ${i}`;
      const polling = acquire();
      const sent = performance.now();
      const delivered = await deliver(vendor, api, mention(`question ${i}`));
      if (delivered.body.status !== "ok")
        throw new Error(`delivery answered ${JSON.stringify(delivered.body)}`);
      const lease = await polling;
      const reported = await send(api, "POST", "/v1/runners/me/reports", runnerToken, {
        lease_id: lease.lease_id,
        event_id: lease.event_id,
        fencing_token: lease.fencing_token,
        outcome: "processed",
        response_text: answer,
      });
      expectStatus(reported, 200, "report");
      await waitFor(() => vendor.posted.some((message) => message.text === answer), "the answer");
      chat.push(performance.now() - sent);
    }

    progress(`${database}: gate → posted, click → decided and message updated, ${options.samples} samples`);
    const polling = acquire();
    await deliver(vendor, api, mention("hold a lease for gates"));
    const lease = await polling;
    const posted: number[] = [];
    const decided: number[] = [];
    const updated: number[] = [];
    for (let i = 0; i < options.samples; i++) {
      const opening = performance.now();
      const gate = await send(api, "POST", `/v1/runners/me/leases/${lease.lease_id}/gates`, runnerToken, {
        fencing_token: lease.fencing_token,
        action_id: randomUUID(),
        tool_name: "github",
        action_name: "merge_pull_request",
        gate_kind: "repair",
        proposed_action: `merge PR #${i}`,
        evidence: { checks: "green" },
        blast_radius: "one repository",
        detail: "bench",
      });
      expectStatus(gate, 201, "gate open");
      const gateId = gate.body.gate_id as string;
      const withButtons = () => vendor.posted.find((m) => JSON.stringify(m.blocks ?? []).includes(gateId));
      await waitFor(() => withButtons() !== undefined, "the gate's message");
      posted.push(performance.now() - opening);
      const message = withButtons()!;
      const clicked = performance.now();
      const answer = await deliver(vendor, api, {
        type: "block_actions",
        team: { id: team.id },
        user: { id: "UBENCH" },
        container: { channel_id: message.channel, message_ts: message.ts },
        actions: [{ action_id: "fleet_gate_approve", value: gateId, action_ts: `${Date.now()}.${i}` }],
      });
      if (answer.body.status !== "ok") throw new Error(`click answered ${JSON.stringify(answer.body)}`);
      decided.push(performance.now() - clicked);
      await waitFor(() => vendor.updated.some((u) => u.ts === message.ts), "the updated message");
      updated.push(performance.now() - clicked);
    }
    return {
      database,
      samples: options.samples,
      chatToAnswer: latencies(chat),
      gateToPosted: latencies(posted),
      clickToDecided: latencies(decided),
      clickToUpdated: latencies(updated),
    };
  } finally {
    if (server !== null) await stopProcess(server.child);
    await vendor.close();
  }
}

export function printConnectorFigures(f: ConnectorFigures): void {
  const ms = (l: Latencies) =>
    `p50 ${l.p50.toFixed(1)} ms, p99 ${l.p99.toFixed(1)} ms, max ${l.max.toFixed(1)} ms${l.p99 < 1000 ? "" : "  (target p99 < 1 s: MISSED)"}`;
  console.log(`\nChat connector (issue 16 §3), ${f.database}, fake vendor, ${f.samples} samples`);
  console.log(`  chat event → fleet event → answer in the thread: ${ms(f.chatToAnswer)}`);
  console.log(`  gate opened → message with buttons posted:       ${ms(f.gateToPosted)}`);
  console.log(`  Approve clicked → gate decided:                  ${ms(f.clickToDecided)}`);
  console.log(`  Approve clicked → message updated at the vendor: ${ms(f.clickToUpdated)}`);
}
