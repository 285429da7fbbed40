import {
  type AssignedPolicy,
  type DatabaseHandle,
  fleetLibraries,
  fleets,
  models,
  openDatabase,
  runners,
  workspaces,
} from "@fleet/db";
import { mintSecret, RUNNER_TOKEN_PREFIX, sha256Hex } from "../src/auth/tokens.ts";
import { loadConfig } from "../src/env.ts";
import { newId } from "../src/runtime/ids.ts";
import { createServiceContext } from "../src/service-context.ts";
import { bootstrapTenant } from "../src/services/tenants/tenants.ts";

/** A migrated database holding one tenant, and the tenant API key the load is sent with. */
export interface SeededDatabase {
  url: string;
  apiKey: string;
}

/**
 * Migrates the database and bootstraps a tenant in this process, as `fleetctl bootstrap` would, before any
 * server holds it: an embedded directory admits one opener, and this saves spawning fleetctl.
 */
export async function seedTenant(url: string): Promise<SeededDatabase> {
  const database = await openDatabase(url, { max: 2 });
  try {
    await database.migrate();
    // As fleetctl's: nothing is cached or started here (no server runs yet), and the bench stores no secret.
    const { services } = await createServiceContext(loadConfig({ DATABASE_URL: url }), database);
    const result = await bootstrapTenant(services, {
      tenantName: "Bench Tenant",
      email: "bench@example.com",
    });
    return { url, apiKey: result.api_key };
  } finally {
    await database.close();
  }
}

/** Runs one statement on the server's maintenance database (CREATE/DROP DATABASE cannot run elsewhere). */
async function onAdmin(adminUrl: string, statement: string): Promise<void> {
  const admin = await openDatabase(adminUrl, { max: 1 });
  try {
    await admin.query(statement);
  } finally {
    await admin.close();
  }
}

/** Creates an empty database next to `adminUrl` and returns its URL and how to drop it. */
export async function createPostgresDatabase(
  adminUrl: string,
  name: string,
): Promise<{ url: string; drop: () => Promise<void> }> {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`unsafe database name: ${name}`);
  await onAdmin(adminUrl, `create database "${name}"`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    // WITH (FORCE) ends connections a killed server may have left behind.
    drop: () => onAdmin(adminUrl, `drop database if exists "${name}" with (force)`),
  };
}

/**
 * `count` active fleets, installed from one platform library entry, in the bench tenant's workspace;
 * written straight to the store (installing through the API would time the install, not the figure).
 */
export async function insertBenchFleets(
  database: DatabaseHandle,
  name: string,
  count: number,
): Promise<{ workspaceId: string; fleetIds: string[] }> {
  const db = database.db;
  const [workspace] = await db.select().from(workspaces).limit(1);
  if (workspace === undefined) throw new Error("the bench database has no workspace");
  const now = Date.now();
  const libraryId = newId(now);
  const requirements = { credentials: [], tools: [], network_hosts: [], runner_labels: [] };
  await db.insert(fleetLibraries).values({
    id: libraryId,
    visibility: "platform",
    name,
    description: "bench",
    instructions: "bench",
    triggers: [],
    requirements,
    credentialReasons: {},
    sourceRef: "upload:sha256:bench",
    createdAt: now,
  });
  const fleetIds = Array.from({ length: count }, () => newId(now));
  await db.insert(fleets).values(
    fleetIds.map((id, i) => ({
      id,
      tenantId: workspace.tenantId,
      workspaceId: workspace.id,
      name: `${name}-${i}`,
      status: "active" as const,
      libraryId,
      libraryVisibility: "platform",
      definition: { instructions: "bench", triggers: [], requirements },
      createdAt: now,
      updatedAt: now,
    })),
  );
  return { workspaceId: workspace.id, fleetIds };
}

/** The model the bench tenants' providers name (the fake vendor serves it). */
export const BENCH_MODEL = "gpt-4o-mini";

/** BENCH_MODEL's catalogue row, priced, as an operator adds it; nothing when it is there already. */
export async function insertBenchModel(database: DatabaseHandle): Promise<void> {
  const now = Date.now();
  await database.db
    .insert(models)
    .values({
      uid: newId(now),
      provider: "openai",
      modelId: BENCH_MODEL,
      contextCapTokens: 128_000,
      inputNanosPerMtok: 150_000_000,
      cachedInputNanosPerMtok: 75_000_000,
      outputNanosPerMtok: 600_000_000,
      createdAt: now,
      updatedAt: now,
    })
    .onConflictDoNothing();
}

/**
 * A runner enrolled straight in the store (heartbeat just now), with `policy` assigned when given; the
 * bench holds its token.
 */
export async function insertBenchRunner(
  database: DatabaseHandle,
  hostId: string,
  policy: AssignedPolicy | null = null,
): Promise<{ runnerId: string; token: string }> {
  const now = Date.now();
  const runnerId = newId(now);
  const token = mintSecret(RUNNER_TOKEN_PREFIX);
  await database.db.insert(runners).values({
    id: runnerId,
    hostId,
    tokenHash: sha256Hex(token),
    labels: [],
    assignedPolicy: policy,
    createdAt: now,
    updatedAt: now,
    lastHeartbeatAt: now,
  });
  return { runnerId, token };
}
