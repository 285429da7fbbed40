import { randomBytes } from "node:crypto";
import type { ProblemBody } from "@fleet/contracts";
import { type DatabaseHandle, openDatabase, runners } from "@fleet/db";
import { afterAll, beforeAll, inject } from "vitest";
import { mintSecret, RUNNER_TOKEN_PREFIX, sha256Hex } from "../src/auth/tokens.ts";
import { type Config, databaseLimits, loadConfig } from "../src/env.ts";
import { newId } from "../src/runtime/ids.ts";
import { type App, createApp } from "../src/server.ts";
import { upsertMember } from "../src/services/members/members.ts";
import { issueOperatorToken, issueSession } from "../src/services/sessions/session-tokens.ts";
import { createSignInLink } from "../src/services/sessions/sign-in-links.ts";
import { bootstrapTenant } from "../src/services/tenants/tenants.ts";

/** One API per test worker, on this project's database: PGlite in memory, or the run's PostgreSQL database. */
export interface TestApi {
  app: App;
  database: DatabaseHandle;
  config: Config;
  baseUrl: string;
  /** Every log line the API wrote. */
  logs: string[];
}

export const databaseKind = process.env.TEST_DB === "postgres" ? "postgres" : "pglite";

export function testDatabaseUrl(): string {
  return databaseKind === "postgres" ? inject("postgresUrl") : "pglite://memory";
}

/** Starts an API on its own database handle (a second instance, when called again on PostgreSQL). */
/** One vault master key per worker, so every instance it starts opens the others' secrets. */
const masterKey = randomBytes(32).toString("base64");

export async function startApi(overrides: Record<string, string> = {}): Promise<TestApi> {
  const config = loadConfig({
    DATABASE_URL: testDatabaseUrl(),
    PORT: "0",
    LOG_LEVEL: "info",
    FLEET_MASTER_KEY: masterKey,
    // Suites share a tenant's key across many requests: quotas no test meets but the rate-limit tests' own.
    FLEET_RATE_LIMIT_WORKSPACE: "1000000000",
    FLEET_RATE_LIMIT_CREDENTIAL: "1000000000",
    FLEET_RATE_LIMIT_ADDRESS: "1000000000",
    ...overrides,
  });
  const database = await openDatabase(config.databaseUrl, { max: 5, ...databaseLimits(config) });
  if (databaseKind === "pglite") await database.migrate();
  const logs: string[] = [];
  const app = await createApp(config, database, { logStream: { write: (line) => void logs.push(line) } });
  await app.app.listen({ port: 0, host: "127.0.0.1" });
  const address = app.app.server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return { app, database, config, baseUrl: `http://127.0.0.1:${port}`, logs };
}

let shared: Promise<TestApi> | null = null;
let isolated: TestApi | null = null;

/** The worker's shared API; files in a worker reuse it (vitest runs with isolate: false). */
export function testApi(): Promise<TestApi> {
  if (isolated !== null) return Promise.resolve(isolated);
  shared ??= startApi();
  return shared;
}

/**
 * Gives the calling test file an API on a database of its own, for subjects that are global across
 * tenants: a runner leases any fleet's work, so other files' waiting messages would be leased too.
 * Files in a worker run one after another, so the switch holds for exactly this file (or, called inside a
 * describe, that block). `overrides` configure it (dev mode, say), or a function answering them.
 */
export function useIsolatedApi(
  overrides: Record<string, string> | (() => Record<string, string>) = {},
): void {
  let api: TestApi | null = null;
  let drop: (() => Promise<void>) | null = null;
  beforeAll(async () => {
    const database = await isolatedDatabase();
    drop = database.drop;
    // A function is read when the API starts: after earlier hooks (a fake vendor's listen) have run.
    const values = typeof overrides === "function" ? overrides() : overrides;
    api = await startApi({ ...values, DATABASE_URL: database.url });
    isolated = api;
  }, 60_000);
  afterAll(async () => {
    isolated = null;
    await api?.app.close();
    await api?.database.close();
    await drop?.();
  });
}

let isolatedCounter = 0;

/** A migrated database of the caller's own (a fresh in-memory PGlite, or a new PostgreSQL database). */
export async function isolatedDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  if (databaseKind !== "postgres") return { url: "pglite://memory", drop: async () => {} };
  const base = new URL(testDatabaseUrl());
  const name = `${base.pathname.slice(1)}_iso_${process.pid}_${++isolatedCounter}`;
  const admin = new URL(base);
  admin.pathname = "/postgres";
  // Creating and dropping a database may outlast a request's statement timeout on a busy machine.
  const server = await openDatabase(admin.toString(), { max: 1, statementTimeoutMs: 120_000 });
  await server.query(`create database ${name}`);
  base.pathname = `/${name}`;
  const handle = await openDatabase(base.toString(), { max: 1 });
  await handle.migrate();
  await handle.close();
  return {
    url: base.toString(),
    drop: async () => {
      await server.query(`drop database if exists ${name} with (force)`);
      await server.close();
    },
  };
}

export interface Response<T = Record<string, unknown>> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface RequestOptions {
  token?: string;
  body?: unknown;
  rawBody?: string;
  headers?: Record<string, string>;
}

/** Calls the API over real HTTP. */
export async function call<T = Record<string, unknown>>(
  method: string,
  path: string,
  options: RequestOptions = {},
): Promise<Response<T>> {
  const api = await testApi();
  return callAt<T>(api.baseUrl, method, path, options);
}

export async function callAt<T = Record<string, unknown>>(
  baseUrl: string,
  method: string,
  path: string,
  options: RequestOptions = {},
): Promise<Response<T>> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token !== undefined) headers.authorization = `Bearer ${options.token}`;
  let body: string | undefined = options.rawBody;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers["content-type"] ??= "application/json";
  }
  const response = await fetch(`${baseUrl}${path}`, { method, headers, body });
  const text = await response.text();
  let parsed: unknown = null;
  try {
    parsed = text.length > 0 ? JSON.parse(text) : null;
  } catch {
    parsed = null;
  }
  return { status: response.status, headers: response.headers, body: parsed as T, text };
}

/** Waits `ms` milliseconds. */
export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A refusal over /trpc: tRPC's error envelope with the problem body inside (the errorFormatter in src/trpc.ts). */
export interface TrpcRefusal {
  error: { data: { problem: ProblemBody } };
}

/** An answer over /trpc: tRPC's result envelope around the operation's output. */
export interface TrpcResult<T> {
  result: { data: T };
}

let tenantCounter = 0;

export interface Tenant {
  tenantId: string;
  workspaceId: string;
  userId: string;
  email: string;
  apiKey: string;
}

/** A fresh tenant with its owner (every tenant scope), a default workspace and an API key. */
export async function seedTenant(name = "tenant"): Promise<Tenant> {
  const api = await testApi();
  const email = `owner-${process.pid}-${++tenantCounter}-${newId()}@example.test`;
  const result = await bootstrapTenant(api.app.services, { tenantName: `${name} ${tenantCounter}`, email });
  return {
    tenantId: result.tenant_id,
    workspaceId: result.workspace_id,
    userId: result.user_id,
    email,
    apiKey: result.api_key,
  };
}

/** A member of the tenant with exactly these scopes, and a command-line session token for them. */
export async function seedMember(
  tenant: Tenant,
  scopes: string[],
): Promise<{ userId: string; email: string; token: string }> {
  const api = await testApi();
  const email = `member-${newId()}@example.test`;
  const { user_id } = await upsertMember(api.app.services, { tenantId: tenant.tenantId, email, scopes });
  const { token } = await issueSession(api.app.services, { email, tenantId: tenant.tenantId, kind: "cli" });
  return { userId: user_id, email, token };
}

export async function sessionFor(tenant: Tenant, kind: "session" | "cli" = "session"): Promise<string> {
  const api = await testApi();
  return (await issueSession(api.app.services, { email: tenant.email, tenantId: tenant.tenantId, kind }))
    .token;
}

export async function signInLink(tenant: Tenant): Promise<string> {
  const api = await testApi();
  const { url } = await createSignInLink(api.app.services, {
    email: tenant.email,
    tenantId: tenant.tenantId,
  });
  return new URL(url).searchParams.get("token")!;
}

export async function operatorToken(scopes: string[]): Promise<string> {
  const api = await testApi();
  return (await issueOperatorToken(api.app.services, { scopes })).token;
}

/** A runner token. Runner enrolment arrives with the runners issue; the row is written directly until then. */
export async function seedRunnerToken(): Promise<string> {
  const api = await testApi();
  const token = mintSecret(RUNNER_TOKEN_PREFIX);
  await api.database.db
    .insert(runners)
    .values({ id: newId(), hostId: "test-host", tokenHash: sha256Hex(token), createdAt: Date.now() });
  return token;
}
