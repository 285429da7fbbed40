import { type CredentialClass, GATE_TIMEOUT_MAX_MS, type Operation, operatorScopes } from "@fleet/contracts";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import type { z } from "zod";
import { operations } from "../src/router/root.ts";
import { labelledFleet, messageFleet, uniqueLabel } from "./fleet-fixtures.ts";
import {
  call,
  operatorToken,
  type Response,
  seedTenant,
  type Tenant,
  testApi,
  useIsolatedApi,
} from "./harness.ts";
import { mutate, mutation, restRequest, trpcRequest } from "./hostile-input-fixtures.ts";
import { acquire, enrollRunner } from "./runner-fixtures.ts";
import { openStream } from "./stream-fixtures.ts";
import { arbitraryFor } from "./zod-arbitrary.ts";

/**
 * The class of issue 13 §4, proven gone: for every operation in the contracts, generated requests
 * (fields shaped by the zod contract, then made hostile: NUL, lone surrogates, huge strings, deep
 * nesting, a body that is not an object, wrong types, extra and hostile field names) go over real HTTP,
 * on /v1 and /trpc, with a valid credential of the operation's class. Each answer is below 500; every
 * refusal is a problem with a registry code; and a refused request leaves the database as it found it.
 *
 * Fixed seed and a bounded count here; `FUZZ_RUNS=2000 npx vitest run test/hostile-input.property.test.ts`
 * (or `pnpm --filter @fleet/api fuzz`) runs longer, `FUZZ_SEED` picks another seed.
 */

// The runner operations lease work, and runners lease any tenant's waiting work: a database of its own.
useIsolatedApi();

const RUNS = Number(process.env.FUZZ_RUNS ?? 10);
const SEED = Number(process.env.FUZZ_SEED ?? 1313);

// ---- The world the requests act on ---------------------------------------------------------------

interface World {
  tenant: Tenant;
  tokens: Record<CredentialClass, string>;
  /** Values that name real things, by field name: most requests use one, so they reach the services. */
  known: Record<string, unknown[]>;
}

async function makeWorld(): Promise<World> {
  const tenant = await seedTenant("fuzz");
  const label = uniqueLabel();
  const fleetId = await labelledFleet(tenant, label);
  const eventId = await messageFleet(tenant, fleetId);
  await messageFleet(tenant, fleetId, "a second message");
  const runner = await enrollRunner({ labels: [label] });
  const spare = await enrollRunner({ labels: [uniqueLabel()], heartbeat: false });
  const lease = (await acquire(runner)).body.lease!;
  expect(lease).not.toBeNull();
  const fleetBase = `/v1/workspaces/${tenant.workspaceId}/fleets/${fleetId}`;
  const made = async (method: string, path: string, token: string, body: unknown) => {
    const answer = await call<Record<string, string>>(method, path, { token, body });
    expect(answer.status, answer.text).toBeLessThan(300);
    return answer.body;
  };
  const schedule = await made("POST", `${fleetBase}/schedules`, tenant.apiKey, {
    cron: "0 9 * * *",
    message: "fuzz",
  });
  const leaseBase = `/v1/runners/me/leases/${lease.lease_id}`;
  const fleetSchedule = await made("POST", `${leaseBase}/schedules`, runner.token, {
    fencing_token: lease.fencing_token,
    cron: "0 8 * * *",
    message: "fuzz",
  });
  await made("PUT", `${leaseBase}/memories/notes`, runner.token, {
    fencing_token: lease.fencing_token,
    content: "remember",
  });
  await made("POST", `/v1/workspaces/${tenant.workspaceId}/secrets`, tenant.apiKey, {
    name: "FUZZ_SECRET",
    data: { token: "value" },
  });
  const library = await made("POST", `/v1/workspaces/${tenant.workspaceId}/fleet-libraries`, tenant.apiKey, {
    definition: "---\nname: Fuzz fleet\n---\nAnswer every message.\n",
  });
  const spareKey = await made("POST", "/v1/api-keys", tenant.apiKey, { key_name: "spare" });
  return {
    tenant,
    tokens: {
      session: tenant.apiKey,
      api_key: tenant.apiKey,
      runner: runner.token,
      operator: await operatorToken([...operatorScopes]),
    },
    known: {
      workspace_id: [tenant.workspaceId],
      fleet_id: [fleetId],
      event_id: [eventId, lease.event_id],
      schedule_id: [schedule.schedule_id, fleetSchedule.schedule_id],
      secret_name: ["FUZZ_SECRET"],
      library_id: [library.id],
      lease_id: [lease.lease_id],
      fencing_token: [lease.fencing_token],
      // Never the credentials' own key or runner: a 2xx revoking them would end the run's reach.
      id: [spareKey.id, spare.runnerId],
      key: ["notes"],
    },
  };
}

/**
 * Fields generated apart from their contracts: a wait is short (the property runs many), and a gate the
 * fuzz opens waits an hour or more, or the sweeper would time a one-second gate out in the background and
 * change a table while a later request is checked.
 */
const special: Record<string, fc.Arbitrary<unknown>> = {
  wait_ms: fc.integer({ min: 0, max: 20 }),
  timeout_ms: fc.integer({ min: 3_600_000, max: GATE_TIMEOUT_MAX_MS }),
};

/** Field arbitraries: a known value most of the time where one exists, else what the contract takes. */
function inputArbitrary(op: Operation, world: World, destructive: boolean) {
  const shape: Record<string, z.ZodType> = {
    ...op.params,
    ...op.query,
    ...op.body,
    ...op.requestHeaders,
  };
  const fields = Object.fromEntries(
    Object.entries(shape).map(([name, schema]) => {
      const generated = special[name] ?? arbitraryFor(schema);
      // A destructive route names real things only through its body: its path params stay generated.
      const known = destructive && name in op.params ? undefined : world.known[name];
      const arbitrary = known
        ? fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...known) }, { weight: 1, arbitrary: generated })
        : generated;
      return [name, arbitrary];
    }),
  );
  const required = Object.keys(shape).filter(
    (name) => (shape[name] as unknown as { _zod: { optin?: string } })._zod.optin === undefined,
  );
  return fc.record(fields, { requiredKeys: required }) as fc.Arbitrary<Record<string, unknown>>;
}

// ---- The check -------------------------------------------------------------------------------------

/**
 * Every public table's row count and content hash; `last_used_at` moves in the background on reads, and
 * the rate limiter's buckets count every request, refused ones included; the live tail's replay window
 * and the runs' frames fill in the background with the frames of earlier, accepted requests.
 */
async function fingerprintQuery(): Promise<string> {
  const api = await testApi();
  const tables = await api.database.query<{ tablename: string }>(
    "select tablename from pg_tables where schemaname = 'public' and tablename not in ('rate_limit_buckets', 'stream_frames', 'run_frames') order by tablename",
  );
  return tables
    .map(
      ({ tablename }) =>
        `select '${tablename}' as t, count(*)::int as n, md5(coalesce(string_agg(r, ',' order by r), '')) as h` +
        ` from (select (to_jsonb(x) - 'last_used_at')::text as r from "${tablename}" x) s`,
    )
    .join(" union all ");
}

async function fingerprint(sql: string): Promise<string> {
  const api = await testApi();
  const rows = await api.database.query<{ t: string; n: number; h: string }>(sql);
  return rows.map((row) => `${row.t}:${row.n}:${row.h}`).join("\n");
}

function refusalCode(response: Response, trpc: boolean): unknown {
  const type = response.headers.get("content-type") ?? "";
  if (type.startsWith("application/problem+json")) return response.body.error_code;
  if (!trpc) return undefined;
  const error = response.body as { error?: { data?: { problem?: { error_code?: unknown } } } } | null;
  return error?.error?.data?.problem?.error_code;
}

/** Routes whose success ends what later routes act on: they run last. */
const isDestructive = (op: Operation) =>
  op.method === "DELETE" || op.id === "leases.release" || op.id === "leases.report";

const ordered = [...operations].sort((a, b) => Number(isDestructive(a)) - Number(isDestructive(b)));

describe("hostile input, generated from the contracts", () => {
  let world: World;
  let fingerprintSql: string;
  beforeAll(async () => {
    world = await makeWorld();
    fingerprintSql = await fingerprintQuery();
  }, 60_000);

  it.each(ordered.map((op) => [op.id, op] as const))(
    "%s answers below 500, a problem on refusal, and stores nothing it refused",
    async (_id, op) => {
      const token = op.credentials.length > 0 ? world.tokens[op.credentials[0]!] : undefined;
      const sample = fc.record({
        input: inputArbitrary(op, world, isDestructive(op)),
        change: mutation,
        trpc: fc.boolean(),
      });
      await fc.assert(
        fc.asyncProperty(sample, async ({ input, change, trpc }) => {
          const mutated = mutate(input, change);
          const sent = trpc
            ? trpcRequest(op, mutated, change, token)
            : restRequest(op, mutated, change, token);
          const before = await fingerprint(fingerprintSql);
          if (op.stream && !trpc) {
            // A stream that opens never ends: its head is the answer, and it closes at once.
            const stream = await openStream((await testApi()).baseUrl, sent.path, { headers: sent.headers });
            stream.close();
            const what = `GET ${sent.path.slice(0, 200)} → ${stream.status} ${JSON.stringify(stream.problem)}`;
            expect(stream.status, what).toBeLessThan(500);
            if (sent.mustRefuse)
              expect(stream.status, `accepted what it must refuse: ${what}`).toBeGreaterThanOrEqual(400);
            if (stream.status < 400) return;
            expect(stream.problem?.error_code, what).toMatch(/^UZ-[A-Z]+-\d{3}$/);
            expect(await fingerprint(fingerprintSql), `a refused request wrote: ${what}`).toBe(before);
            return;
          }
          const response = await call(sent.method, sent.path, {
            headers: sent.headers,
            rawBody: sent.rawBody,
          });
          const what = `${sent.method} ${sent.path.slice(0, 200)} → ${response.status} ${response.text.slice(0, 300)}`;
          expect(response.status, what).toBeLessThan(500);
          if (sent.mustRefuse)
            expect(response.status, `accepted what it must refuse: ${what}`).toBeGreaterThanOrEqual(400);
          if (response.status < 400) return;
          expect(refusalCode(response, trpc), what).toMatch(/^UZ-[A-Z]+-\d{3}$/);
          expect(await fingerprint(fingerprintSql), `a refused request wrote: ${what}`).toBe(before);
        }),
        { seed: SEED, numRuns: RUNS, endOnFailure: true },
      );
    },
    30_000 + RUNS * 3_000,
  );
});
