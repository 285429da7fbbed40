import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { openDatabase } from "@fleet/db";
import Fastify from "fastify";
import { Authenticator } from "../../src/auth/authenticate.ts";
import { PrincipalCache } from "../../src/auth/principal-cache.ts";
import { SessionSigner } from "../../src/auth/sessions.ts";
import { loadConfig } from "../../src/env.ts";
import { Responses } from "../../src/http/responses.ts";
import { LogDestination } from "../../src/runtime/log-destination.ts";
import { getMe } from "../../src/services/users/get-me.ts";

/**
 * The same work as `GET /v1/users/me` written straight on Fastify: parse the Bearer header, resolve it
 * with the real Authenticator and PrincipalCache against the same database, answer the same fields.
 * No tRPC, no contracts layer, no access log — what the API would cost without its framework layers.
 * With ME_PLATFORM=1 it also carries what every API response carries: a request id on the response and
 * its access line (the API's own request ids, access log and log buffer), so the ratio against it
 * isolates the contracts/adapter layers.
 */
const config = loadConfig();
const database = await openDatabase(config.databaseUrl);
const now = () => Date.now();
const sessions = await SessionSigner.create(database.db, config.sessionSigningKey, now());
const cache = new PrincipalCache();
await cache.start(database);
const authenticator = new Authenticator(database.db, cache, sessions, (error) => console.error(error));

const platform = process.env.ME_PLATFORM === "1";
const responses = new Responses();
responses.logTo(new LogDestination());
const app = Fastify({
  logger: false,
  ...(platform
    ? {
        serverFactory: (handler: (request: IncomingMessage, response: ServerResponse) => void) =>
          createServer({ ServerResponse: responses.Response }, handler),
      }
    : {}),
});

app.get("/healthz", async () => ({ status: "ok" }));

app.get("/me", async (request, reply) => {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? "");
  if (!match) return reply.code(401).send({ error: "bearer credential required" });
  // Any refusal is a 401 here: the bench only measures the path that succeeds.
  let principal: Awaited<ReturnType<typeof authenticator.authenticate>> | null;
  try {
    principal = await authenticator.authenticate(match[1]!, now());
  } catch {
    principal = null;
  }
  if (principal === null) return reply.code(401).send({ error: "credential not valid" });
  if (principal.class !== "session" && principal.class !== "api_key") {
    return reply.code(403).send({ error: "tenant credential required" });
  }
  return getMe(principal);
});

process.on("SIGTERM", async () => {
  await app.close();
  await cache.stop();
  await database.close();
  process.exit(0);
});

await app.listen({ port: config.port, host: config.host });
