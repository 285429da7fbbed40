import { parseArgs } from "node:util";
import { Problem } from "@fleet/contracts";
import { openDatabase, parseDatabaseUrl, readLock } from "@fleet/db";
import { ConfigError, databaseLimits, loadConfig } from "../env.ts";
import { createServiceContext } from "../service-context.ts";
import { CliError, readCredential, resolveApiUrl } from "./api-client.ts";
import { runCommand, UsageError, type Values } from "./commands.ts";
import { sendCommand } from "./control-socket.ts";
import { defaultCredentialsFile, login, logout } from "./login.ts";
import { type Printed, remoteCommands, runRemote } from "./remote-commands.ts";

const usage = `fleetctl — operator commands for Fleet Control Plane (uses DATABASE_URL, like the server)

  bootstrap --tenant NAME --email EMAIL        a tenant, its owner, a default workspace and an API key
  member add --tenant-id ID --email EMAIL --scopes "fleet:read approval:read"
  session --email EMAIL [--tenant-id ID] [--ttl SECONDS]    a command-line session token
  operator --scopes "runner:write model:admin" [--ttl SECONDS]   an operator token
  login-link --email EMAIL [--tenant-id ID]    a one-time console sign-in link (10 minutes)
  migrate                                      apply the database migrations
  first-run [--email EMAIL] [--tenant NAME]    on an empty database a first tenant and owner; then a
                                               sign-in link for the oldest owner (used by pnpm start)
  login [--api-url URL] [--name NAME]         sign in through a running API (approve on its console's
                                               /device page); the credential is saved (mode 600)
  logout                                       revoke that credential and forget it

With the saved credential, as the console does (the same routes, scopes and rules):
  whoami                                       who you are signed in as, and where
  fleets list [--workspace ID]
  send --fleet ID --message TEXT [--workspace ID]
  approvals list [--status pending|approved|denied|timed_out|auto_killed] [--workspace ID]
  approve GATE_ID [--reason TEXT] [--workspace ID]
  deny GATE_ID [--reason TEXT] [--workspace ID]
  webhooks listen [--events a,b] [--fleet ID] [--port N] [--forward-to URL] [--url URL] [--workspace ID]
                                               subscribe a local URL to the workspace's events, print
                                               each delivery with whether its signature verifies, pass
                                               it on to --forward-to; Ctrl-C deletes the endpoint. The
                                               API takes a local URL in dev mode; else --url (a tunnel)

  --api-url URL            the API of login and the commands above: else API_URL, PUBLIC_URL or PORT
                           (http://localhost:PORT), else the saved credential's, else http://localhost:8080
  --credentials-file PATH  where the credential is saved (default ~/.config/fleet/credentials.json)
  --workspace ID           needed only when the tenant has more than one workspace
  --json                   print the result as JSON on stdout`;

/** A refusal the running server reported for the command. */
class RemoteError extends Error {}

/** Words of the commands that take an id after them, or nothing at all. */
const oneWord = new Set(["whoami", "send", "approve", "deny"]);

/** The server writes its lock before it listens on the socket: a fresh start may need a moment. */
async function sendWhenListening(path: string, command: string, values: Values) {
  const deadline = Date.now() + 30_000;
  for (;;) {
    try {
      return await sendCommand(path, command, values);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if ((code !== "ENOENT" && code !== "ECONNREFUSED") || Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}

async function run(argv: string[]): Promise<Record<string, unknown> | Printed> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      tenant: { type: "string" },
      "tenant-id": { type: "string" },
      email: { type: "string" },
      scopes: { type: "string" },
      ttl: { type: "string" },
      "api-url": { type: "string" },
      name: { type: "string" },
      "credentials-file": { type: "string" },
      workspace: { type: "string" },
      fleet: { type: "string" },
      message: { type: "string" },
      status: { type: "string" },
      reason: { type: "string" },
      events: { type: "string" },
      port: { type: "string" },
      url: { type: "string" },
      "forward-to": { type: "string" },
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
  // Signing in, and what a signed-in person does, need no database: they speak to a running API.
  const file = values["credentials-file"] ?? defaultCredentialsFile();
  const saved = readCredential(file);
  const apiUrl = resolveApiUrl(values["api-url"], config.cliApiUrl, saved);
  if (command === "login") {
    return login({ apiUrl, file, clientName: values.name ?? "fleetctl" }, (line) => console.error(line));
  }
  if (command === "logout") return logout(file);
  const words = positionals;
  if (remoteCommands.includes(words.slice(0, oneWord.has(words[0]!) ? 1 : 2).join(" ")))
    return runRemote(words, values, apiUrl, saved);
  const target = parseDatabaseUrl(config.databaseUrl);
  // A running API owns the embedded directory: ask it to run the command.
  const holder = target.kind === "pglite" && target.dir !== null ? readLock(target.dir) : null;
  if (holder?.socket) {
    const { status, body } = await sendWhenListening(holder.socket, command, values as Values);
    if (status === 200) return body.result as Record<string, unknown>;
    if (body.usage === true) throw new UsageError(String(body.error));
    throw new RemoteError(String(body.error));
  }
  const database = await openDatabase(config.databaseUrl, { max: 2, ...databaseLimits(config) });
  try {
    await database.migrate();
    // None of the server's options: fleetctl caches no principal (its NOTIFY reaches the servers), opens no
    // secret, runs no scheduler and starts nothing (nothing waits for work or a gate in this process).
    const { services } = await createServiceContext(config, database);
    return await runCommand(services, command, values as Values);
  } finally {
    await database.close();
  }
}

const json = process.argv.includes("--json");
const isPrinted = (result: Record<string, unknown> | Printed): result is Printed =>
  "text" in result && "json" in result && typeof result.text === "string";
run(process.argv.slice(2)).then(
  (result) => {
    if (isPrinted(result)) {
      console.log(json ? JSON.stringify(result.json) : result.text);
      return;
    }
    if (Object.keys(result).length === 0) return;
    if (json) console.log(JSON.stringify(result));
    else
      for (const [key, value] of Object.entries(result))
        console.log(`${key}: ${typeof value === "object" ? JSON.stringify(value) : value}`);
  },
  (error: unknown) => {
    if (error instanceof Problem) console.error(`fleetctl: ${error.detail}`);
    else if (error instanceof RemoteError || error instanceof CliError)
      console.error(`fleetctl: ${error.message}`);
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
