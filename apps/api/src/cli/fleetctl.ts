import { parseArgs } from "node:util";
import { Problem, parseScopeList } from "@fleet/contracts";
import { openDatabase } from "@fleet/db";
import { SessionSigner } from "../auth/sessions.ts";
import { ConfigError, loadConfig } from "../env.ts";
import type { ServiceContext } from "../services/context.ts";
import { firstRun } from "../services/identity/first-run.ts";
import { upsertMember } from "../services/identity/members.ts";
import { createSignInLink, issueOperatorToken, issueSession } from "../services/identity/sessions.ts";
import { bootstrapTenant } from "../services/identity/tenants.ts";
import { Vault } from "../services/secrets/vault.ts";

const usage = `fleetctl — operator commands for Fleet Control Plane (uses DATABASE_URL, like the server)

  bootstrap --tenant NAME --email EMAIL        a tenant, its owner, a default workspace and an API key
  member add --tenant-id ID --email EMAIL --scopes "fleet:read approval:read"
  session --email EMAIL [--tenant-id ID] [--ttl SECONDS]    a command-line session token
  operator --scopes "runner:write model:admin" [--ttl SECONDS]   an operator token
  login-link --email EMAIL [--tenant-id ID]    a one-time console sign-in link (10 minutes)
  migrate                                      apply the database migrations
  first-run [--email EMAIL] [--tenant NAME]    on an empty database a first tenant and owner; then a
                                               sign-in link for the oldest owner (used by pnpm start)

  --json   print the result as JSON on stdout`;

type Values = Record<string, string | boolean | undefined>;

function required(values: Values, name: string): string {
  const value = values[name];
  if (typeof value !== "string" || value.length === 0) throw new UsageError(`--${name} is required`);
  return value;
}

function optionalInt(values: Values, name: string): number | undefined {
  const value = values[name];
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0) throw new UsageError(`--${name} must be a positive whole number`);
  return n;
}

class UsageError extends Error {}

async function run(argv: string[]): Promise<Record<string, unknown>> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      tenant: { type: "string" },
      "tenant-id": { type: "string" },
      email: { type: "string" },
      scopes: { type: "string" },
      ttl: { type: "string" },
      json: { type: "boolean" },
      help: { type: "boolean", short: "h" },
    },
  });
  const command = positionals.join(" ");
  if (values.help || command === "" || command === "help") {
    console.log(usage);
    return {};
  }
  const config = loadConfig();
  const database = await openDatabase(config.databaseUrl, { viaOwner: true, max: 2 });
  try {
    await database.migrate();
    if (command === "migrate") return { migrated: true };
    const now = () => Date.now();
    const ctx: ServiceContext = {
      db: database.db,
      config,
      now,
      principalsChanged: () => {}, // fleetctl caches nothing; the NOTIFY reaches the servers
      vault: new Vault(null), // fleetctl touches no secret
      sessions: await SessionSigner.create(database.db, config.sessionSigningKey, now()),
    };
    const tenantId = values["tenant-id"];
    switch (command) {
      case "bootstrap":
        return {
          ...(await bootstrapTenant(ctx, {
            tenantName: required(values, "tenant"),
            email: required(values, "email"),
          })),
        };
      case "member add":
        return await upsertMember(ctx, {
          tenantId: required(values, "tenant-id"),
          email: required(values, "email"),
          scopes: parseScopeList(required(values, "scopes")),
        });
      case "session": {
        const session = await issueSession(ctx, {
          email: required(values, "email"),
          kind: "cli",
          ...(tenantId ? { tenantId } : {}),
          ...(values.ttl ? { ttlSeconds: optionalInt(values, "ttl")! } : {}),
        });
        return { token: session.token, expires_at: session.expires_at };
      }
      case "operator": {
        const token = await issueOperatorToken(ctx, {
          scopes: parseScopeList(required(values, "scopes")),
          ...(values.ttl ? { ttlSeconds: optionalInt(values, "ttl")! } : {}),
        });
        return { token: token.token, expires_at: token.expires_at };
      }
      case "first-run":
        return await firstRun(ctx, {
          ownerEmail: typeof values.email === "string" ? values.email : "owner@localhost",
          tenantName: typeof values.tenant === "string" ? values.tenant : "Default",
        });
      case "login-link":
        return await createSignInLink(ctx, {
          email: required(values, "email"),
          ...(tenantId ? { tenantId } : {}),
        });
      default:
        throw new UsageError(`unknown command "${command}"`);
    }
  } finally {
    await database.close();
  }
}

const json = process.argv.includes("--json");
run(process.argv.slice(2)).then(
  (result) => {
    if (Object.keys(result).length === 0) return;
    if (json) console.log(JSON.stringify(result));
    else
      for (const [key, value] of Object.entries(result))
        console.log(`${key}: ${typeof value === "object" ? JSON.stringify(value) : value}`);
  },
  (error: unknown) => {
    if (error instanceof Problem) console.error(`fleetctl: ${error.detail}`);
    else if (error instanceof UsageError) console.error(`fleetctl: ${error.message}\n\n${usage}`);
    else if (
      error instanceof ConfigError ||
      (error instanceof Error && error.name === "DataDirLockedError")
    ) {
      console.error(`fleetctl: ${error.message}`);
    } else console.error("fleetctl: failed:", error instanceof Error ? error.message : error);
    process.exitCode = 1;
  },
);
