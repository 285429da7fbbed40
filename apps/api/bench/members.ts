import type { SeededDatabase } from "./databases.ts";
import { apiServerSpec, type Server, startServer, stopProcess, waitUntilReady } from "./processes.ts";

/**
 * Issue 16 §1: a removed member's next request. Per sample, a person is invited through instance A and
 * signs in, mints a key, and has both credentials cached on instance B (PostgreSQL; on PGlite, A is B);
 * then the owner removes them through A. Timed: the DELETE's answer (it waits until every instance acked
 * the change), and from sending it until B has refused both the session and the key. A credential B still
 * serves after the DELETE answered is counted as a miss (there must be none).
 */
export interface MemberFigures {
  database: string;
  samples: number;
  removal: Latencies;
  refusedOnOther: Latencies;
  misses: number;
}

interface Latencies {
  p50: number;
  p99: number;
  max: number;
}

function latencies(values: number[]): Latencies {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
  return { p50: at(50), p99: at(99), max: sorted.at(-1) ?? NaN };
}

async function send(base: string, method: string, path: string, token?: string, body?: unknown) {
  const headers: Record<string, string> = {};
  if (token !== undefined) headers.authorization = `Bearer ${token}`;
  if (body !== undefined) headers["content-type"] = "application/json";
  const response = await fetch(`${base}${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return {
    status: response.status,
    body: text.length > 0 ? (JSON.parse(text) as Record<string, unknown>) : {},
  };
}

async function startApi(db: SeededDatabase, name: string, options: { apiDir: string; logDir: string }) {
  const server = await startServer(
    apiServerSpec(name, {
      apiDir: options.apiDir,
      logDir: options.logDir,
      env: { DATABASE_URL: db.url, LOG_LEVEL: "warn", FLEET_RATE_LIMITS: "false" },
    }),
  );
  await waitUntilReady(server, "/healthz", { timeoutMs: 120_000 });
  return server;
}

export async function benchMembers(
  db: SeededDatabase,
  database: string,
  options: { apiDir: string; logDir: string; samples: number; twoInstances: boolean },
  progress: (message: string) => void,
): Promise<MemberFigures> {
  const servers: Server[] = [await startApi(db, `API members A (${database})`, options)];
  if (options.twoInstances) servers.push(await startApi(db, `API members B (${database})`, options));
  const a = servers[0]!.baseUrl;
  const b = servers.at(-1)!.baseUrl;
  const removal: number[] = [];
  const refused: number[] = [];
  let misses = 0;
  try {
    progress(`${database}: member removal → refused, ${options.samples} samples`);
    for (let i = 0; i < options.samples; i++) {
      const email = `bench-member-${process.pid}-${i}-${Date.now()}@example.com`;
      const invited = await send(a, "POST", "/v1/tenants/me/members", db.apiKey, {
        email,
        scopes: ["fleet:read", "apikey:write"],
      });
      if (invited.status !== 201) throw new Error(`invite answered ${invited.status}`);
      const member = invited.body.member as { user_id: string };
      const link = new URL(invited.body.sign_in_url as string).searchParams.get("token");
      const session = await send(a, "POST", "/v1/auth/sign-in-links/exchange", undefined, { token: link });
      const sessionToken = session.body.session_token as string;
      const minted = await send(b, "POST", "/v1/api-keys", sessionToken, { key_name: `bench-${i}` });
      const key = minted.body.key as string;
      for (const token of [sessionToken, key, sessionToken, key]) {
        const me = await send(b, "GET", "/v1/users/me", token);
        if (me.status !== 200) throw new Error(`warm-up answered ${me.status}`);
      }
      const started = performance.now();
      const removed = await send(a, "DELETE", `/v1/tenants/me/members/${member.user_id}`, db.apiKey);
      removal.push(performance.now() - started);
      if (removed.status !== 204) throw new Error(`removal answered ${removed.status}`);
      const [bySession, byKey] = await Promise.all([
        send(b, "GET", "/v1/users/me", sessionToken),
        send(b, "GET", "/v1/users/me", key),
      ]);
      refused.push(performance.now() - started);
      if (bySession.status !== 401) misses++;
      if (byKey.status !== 401) misses++;
    }
  } finally {
    for (const server of servers) await stopProcess(server.child);
  }
  return {
    database,
    samples: options.samples,
    removal: latencies(removal),
    refusedOnOther: latencies(refused),
    misses,
  };
}

export function printMemberFigures(f: MemberFigures): void {
  const ms = (l: Latencies) =>
    `p50 ${l.p50.toFixed(1)} ms, p99 ${l.p99.toFixed(1)} ms, max ${l.max.toFixed(1)} ms`;
  console.log(`\nMember removal (issue 16 §1), ${f.database}, ${f.samples} samples`);
  console.log(`  DELETE answered (every instance acked):        ${ms(f.removal)}`);
  console.log(`  sent → session and key refused on B:          ${ms(f.refusedOnOther)}`);
  console.log(`  credentials still served after the answer:     ${f.misses} (must be 0)`);
}
