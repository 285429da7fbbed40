import { parseScopeList } from "@fleet/contracts";
import { upsertMember } from "../services/members/members.ts";
import { issueOperatorToken, issueSession } from "../services/sessions/session-tokens.ts";
import { createSignInLink } from "../services/sessions/sign-in-links.ts";
import type { ServiceContext } from "../services/shared/context.ts";
import { firstRun } from "../services/tenants/first-run.ts";
import { bootstrapTenant } from "../services/tenants/tenants.ts";

export type Values = Record<string, string | boolean | undefined>;

function required(values: Values, name: string): string {
  const value = values[name];
  if (typeof value !== "string" || value.length === 0) throw new UsageError(`--${name} is required`);
  return value;
}

/** The longest a token fleetctl mints may live: a bearer token outliving a month is a leak waiting. */
const MAX_TTL_SECONDS = 30 * 24 * 60 * 60;

function optionalInt(values: Values, name: string, max = Number.MAX_SAFE_INTEGER): number | undefined {
  const value = values[name];
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0 || n > max)
    throw new UsageError(`--${name} must be a whole number from 1 to ${max}`);
  return n;
}

/** A command line that does not say what to do; fleetctl prints the usage with it. */
export class UsageError extends Error {}

/**
 * Runs one operator command on the services. fleetctl calls this on its own database connection, or, when
 * a running API holds the embedded directory, the API calls it for fleetctl over its control socket.
 */
export async function runCommand(
  ctx: ServiceContext,
  command: string,
  values: Values,
): Promise<Record<string, unknown>> {
  const tenantId = typeof values["tenant-id"] === "string" ? values["tenant-id"] : undefined;
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
        ...(values.ttl ? { ttlSeconds: optionalInt(values, "ttl", MAX_TTL_SECONDS)! } : {}),
      });
      return { token: session.token, expires_at: session.expires_at };
    }
    case "operator": {
      const token = await issueOperatorToken(ctx, {
        scopes: parseScopeList(required(values, "scopes")),
        ...(values.ttl ? { ttlSeconds: optionalInt(values, "ttl", MAX_TTL_SECONDS)! } : {}),
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
    case "migrate":
      return { migrated: true }; // whoever runs this opened the database, and migrated it when they did
    default:
      throw new UsageError(`unknown command "${command}"`);
  }
}
