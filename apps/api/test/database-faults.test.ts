import type { OutputOf } from "@fleet/contracts";
import type { messageFleet } from "@fleet/contracts/fleets/message-fleet";
import { openDatabase } from "@fleet/db";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedFleetOn } from "./fleet-fixtures.ts";
import { callAt, databaseKind, startApi, type TestApi } from "./harness.ts";
import { PrivateCluster, postgresBinaries } from "./private-postgres.ts";
import { proxyTo } from "./tcp-proxy.ts";

/** The deadlines the API runs with here: the defaults env.ts states. */
const CONNECT_TIMEOUT_MS = 2_000;
const STATEMENT_TIMEOUT_MS = 5_000;
/**
 * The longest a request may take, database down or not (docs/decisions/operations.md, "Database deadlines"): waiting for a
 * connection and opening it each bounded by the connect timeout, then the statement timeout, plus slack.
 */
const ANSWER_WITHIN_MS = 2 * CONNECT_TIMEOUT_MS + STATEMENT_TIMEOUT_MS + 1_000;
/** How long a client here waits before it gives up on a request (and counts it unanswered). */
const CLIENT_PATIENCE_MS = 20_000;
/** Once the database accepts connections again, requests succeed again within this. */
const RECOVERED_WITHIN_MS = 2_000;

interface Outcome {
  kind: "write" | "read";
  /** The write's message text, which identifies its row. */
  message: string | null;
  sentAt: number;
  answeredAt: number;
  status: number | "no answer";
  contentType: string | null;
  retryAfter: string | null;
  code: string | null;
}

const bin = postgresBinaries();
if (bin === null)
  console.log("[database-faults] no PostgreSQL server binaries under /usr/lib/postgresql: skipped");

// A cluster of the test's own, to kill: only the PostgreSQL driver has a server to lose. The embedded
// PGlite runs inside the API's process, so it cannot die while the API answers (see the PGlite case below).
describe.runIf(bin !== null && databaseKind === "postgres")(
  "a private PostgreSQL killed and stopped under load",
  () => {
    let cluster: PrivateCluster;
    let api: TestApi;
    let seeded: { apiKey: string; workspaceId: string; fleetId: string };
    const eventIds: string[] = [];

    beforeAll(async () => {
      cluster = await PrivateCluster.create(bin!);
      const handle = await openDatabase(cluster.url, { max: 1 });
      await handle.migrate();
      await handle.close();
      api = await startApi({ DATABASE_URL: cluster.url, LOG_LEVEL: "silent" });
      seeded = await seedFleetOn(api);
      for (let i = 0; i < 4; i++) {
        const sent = await callAt<OutputOf<typeof messageFleet>>(api.baseUrl, "POST", messagesPath(), {
          token: seeded.apiKey,
          body: { message: `seed ${i}` },
        });
        expect(sent.status, sent.text).toBe(202);
        eventIds.push(sent.body.event_id);
      }
    }, 60_000);

    afterAll(async () => {
      await api?.app.close();
      await api?.database.close();
      await cluster?.destroy();
    });

    const messagesPath = () => `/v1/workspaces/${seeded.workspaceId}/fleets/${seeded.fleetId}/messages`;
    const eventPath = (id: string) =>
      `/v1/workspaces/${seeded.workspaceId}/fleets/${seeded.fleetId}/events/${id}`;

    let written = 0;
    async function send(kind: "write" | "read", base = api.baseUrl): Promise<Outcome> {
      const message = kind === "write" ? `burst ${process.pid} ${++written} ${Date.now()}` : null;
      const sentAt = Date.now();
      const request =
        kind === "write"
          ? {
              method: "POST",
              path: messagesPath(),
              body: JSON.stringify({ message }),
            }
          : { method: "GET", path: eventPath(eventIds[written % eventIds.length]!), body: undefined };
      try {
        const response = await fetch(`${base}${request.path}`, {
          method: request.method,
          headers: {
            authorization: `Bearer ${seeded.apiKey}`,
            ...(request.body ? { "content-type": "application/json" } : {}),
          },
          body: request.body,
          signal: AbortSignal.timeout(CLIENT_PATIENCE_MS),
        });
        const text = await response.text();
        let code: string | null = null;
        try {
          code = (JSON.parse(text) as { error_code?: string }).error_code ?? null;
        } catch {}
        return {
          kind,
          message,
          sentAt,
          answeredAt: Date.now(),
          status: response.status,
          contentType: response.headers.get("content-type"),
          retryAfter: response.headers.get("retry-after"),
          code,
        };
      } catch {
        return {
          kind,
          message,
          sentAt,
          answeredAt: Date.now(),
          status: "no answer",
          contentType: null,
          retryAfter: null,
          code: null,
        };
      }
    }

    /** Writers and readers sending one request after another until `stop` resolves. */
    async function load(stop: Promise<unknown>, base = api.baseUrl): Promise<Outcome[]> {
      let running = true;
      void stop.then(() => {
        running = false;
      });
      const outcomes: Outcome[] = [];
      const loop = async (kind: "write" | "read") => {
        while (running) {
          outcomes.push(await send(kind, base));
          await new Promise((resolve) => setTimeout(resolve, 25));
        }
      };
      await Promise.all([...Array(6)].map(() => loop("write")).concat([...Array(4)].map(() => loop("read"))));
      return outcomes;
    }

    it("answers every read at the first try once the database is back, after a kill that closed no idle connection", {
      timeout: 60_000,
    }, async () => {
      // Through a proxy that can lose connections as a crashed host does: the kill's FIN reaches no idle
      // pooled connection, and each stays open until the first statement sent on it is answered by a reset.
      const { proxy, url } = await proxyTo(cluster.url);
      const proxied = await startApi({ DATABASE_URL: url, LOG_LEVEL: "silent" });
      try {
        // Every pooled connection open and idle before the kill (the pool is 5: startApi's max).
        const warm = await Promise.all([...Array(10)].map(() => send("read", proxied.baseUrl)));
        expect(warm.map((o) => o.status)).toEqual(warm.map(() => 200));
        // Two writers in flight at the kill; the other pooled connections sit idle through the outage.
        let killed = false;
        const writer = async () => {
          while (!killed) await send("write", proxied.baseUrl);
        };
        const writers = Promise.all([writer(), writer()]);
        await new Promise((resolve) => setTimeout(resolve, 300));
        proxy.vanish();
        killed = true;
        await cluster.stop("immediate");
        await writers;
        await new Promise((resolve) => setTimeout(resolve, 1_000));
        await cluster.start();
        proxy.restore();
        // The first reads once the database accepts connections: one after another, then all at once.
        const reads: Outcome[] = [];
        for (let i = 0; i < 3; i++) reads.push(await send("read", proxied.baseUrl));
        reads.push(...(await Promise.all([...Array(10)].map(() => send("read", proxied.baseUrl)))));
        expect(reads.map((o) => `${o.status} ${o.code ?? ""}`.trim())).toEqual(reads.map(() => "200"));
        expect(proxy.resets, "the reads met connections the kill left open").toBeGreaterThan(0);
      } finally {
        await proxied.app.close();
        await proxied.database.close();
        await proxy.stop();
      }
    });

    for (const mode of ["immediate", "fast"] as const) {
      it(`answers every request within its deadline while the database is ${mode === "immediate" ? "killed" : "stopped"}, stores no refused write, and recovers at once`, {
        timeout: 60_000,
      }, async () => {
        let backAt = 0;
        let stopping = { from: 0, to: 0 };
        const outage = (async () => {
          await new Promise((resolve) => setTimeout(resolve, 1_000));
          stopping = { from: Date.now(), to: 0 };
          await cluster.stop(mode);
          stopping.to = Date.now();
          await new Promise((resolve) => setTimeout(resolve, 3_000));
          await cluster.start();
          backAt = Date.now();
          await new Promise((resolve) => setTimeout(resolve, 4_000));
        })();
        const outcomes = await load(outage);
        const longest = Math.max(...outcomes.map((o) => o.answeredAt - o.sentAt));
        const firstBack = (kind: string) =>
          Math.min(
            ...outcomes
              .filter((o) => o.kind === kind && o.sentAt >= backAt && o.status !== 503)
              .map((o) => o.sentAt),
          ) - backAt;
        console.log(
          `[database-faults] ${mode}: ${outcomes.length} requests, ${outcomes.filter((o) => o.status === 503).length} answered 503, longest ${longest} ms; first success after the database returned: write +${firstBack("write")} ms, read +${firstBack("read")} ms`,
        );

        const slow = outcomes.filter(
          (o) => o.status === "no answer" || o.answeredAt - o.sentAt > ANSWER_WITHIN_MS,
        );
        expect(
          slow.map(
            (o) =>
              `${o.kind} ${o.status} after ${o.answeredAt - o.sentAt} ms, sent ${o.sentAt - backAt} ms from recovery`,
          ),
        ).toEqual([]);
        const refused = outcomes.filter((o) => o.status !== 200 && o.status !== 202);
        for (const o of refused) {
          expect(o.status).toBe(503);
          expect(o.contentType).toMatch(/^application\/problem\+json/);
          expect(o.code).toBe("UZ-INTERNAL-002");
          expect(o.retryAfter).toBe("1");
        }
        expect(refused.length, "the outage was seen").toBeGreaterThan(0);

        // Back: every request sent from RECOVERED_WITHIN_MS after the database returned succeeds.
        const late = outcomes.filter((o) => o.sentAt >= backAt + RECOVERED_WITHIN_MS);
        expect(late.length).toBeGreaterThan(0);
        expect(
          late
            .filter((o) => o.status !== 200 && o.status !== 202)
            .map((o) => `${o.kind} ${o.status} sent ${o.sentAt - backAt} ms from recovery`),
        ).toEqual([]);

        // Every acknowledged write is stored, and no refused one is, except where the outcome is unknowable:
        // a write whose COMMIT reached a server that was killed before it could answer (in flight across
        // the kill). That answer is a 503 like any other; a client retries it with its Idempotency-Key.
        const rows = await api.database.query<{ request_json: string }>(
          "select request_json from fleet_events where fleet_id = $1",
          [seeded.fleetId],
        );
        const stored = new Set(
          rows.map((row) => (JSON.parse(row.request_json) as { message: string }).message),
        );
        const writes = outcomes.filter((o) => o.kind === "write");
        expect(
          writes.filter((o) => o.status === 202 && !stored.has(o.message!)).map((o) => o.message),
        ).toEqual([]);
        const inFlightAtKill = (o: Outcome) =>
          mode === "immediate" && o.sentAt <= stopping.to && o.answeredAt >= stopping.from;
        expect(
          writes
            .filter((o) => o.status !== 202 && stored.has(o.message!) && !inFlightAtKill(o))
            .map((o) => `${o.message}: ${o.status} after ${o.answeredAt - o.sentAt} ms`),
        ).toEqual([]);
      });
    }
  },
);
