import { execFile } from "node:child_process";
import { randomUUID } from "node:crypto";
import { promisify } from "node:util";
import { repoRoot } from "./servers.ts";

const run = promisify(execFile);

/** What `fleetctl bootstrap --json` prints, and the owner's address the spec chose. */
export interface Tenant {
  tenant_id: string;
  workspace_id: string;
  user_id: string;
  api_key: string;
  email: string;
  name: string;
}

function setting(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: the e2e global setup did not run`);
  return value;
}

/** Runs fleetctl against the run's database; it waits its turn on the API's socket by itself. */
async function fleetctl(args: string[]): Promise<unknown> {
  const env = {
    ...process.env,
    DATABASE_URL: setting("E2E_DATABASE_URL"),
    CONSOLE_URL: setting("E2E_CONSOLE_URL"),
  };
  const { stdout } = await run(
    process.execPath,
    ["--import", "tsx", "apps/api/src/cli/fleetctl.ts", ...args, "--json"],
    {
      cwd: repoRoot,
      env,
    },
  );
  return JSON.parse(stdout);
}

/** A tenant of the spec's own, so specs run in parallel without seeing each other's keys. */
export async function bootstrapTenant(label: string): Promise<Tenant> {
  const suffix = randomUUID().slice(0, 8);
  const name = `${label}-${suffix}`;
  const email = `owner-${suffix}@example.test`;
  const args = ["bootstrap", "--tenant", name, "--email", email];
  const result = (await fleetctl(args)) as Omit<Tenant, "email" | "name">;
  return { ...result, email, name };
}

/** A one-time console sign-in link for the person. */
export async function loginLink(email: string): Promise<string> {
  return ((await fleetctl(["login-link", "--email", email])) as { url: string }).url;
}

/** An operator token carrying the scopes, as `fleetctl operator --scopes "…"` prints it. */
export async function operatorToken(scopes: string): Promise<string> {
  return ((await fleetctl(["operator", "--scopes", scopes])) as { token: string }).token;
}

/** Adds a person to the tenant with the scopes, as `fleetctl member add` does. */
export async function addMember(tenantId: string, email: string, scopes: string): Promise<void> {
  await fleetctl(["member", "add", "--tenant-id", tenantId, "--email", email, "--scopes", scopes]);
}
