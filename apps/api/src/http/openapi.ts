import {
  type CredentialClass,
  errorRegistry,
  headerName,
  type Operation,
  problemSchema,
} from "@fleet/contracts";
import { z } from "zod";
import { operations } from "../router/root.ts";

type JsonSchema = Record<string, unknown>;

const securitySchemes: Record<CredentialClass, { name: string; description: string }> = {
  session: {
    name: "sessionToken",
    description: "Session token (JWT) from a sign-in link or `fleetctl session`.",
  },
  api_key: {
    name: "tenantApiKey",
    description: "Tenant API key: `agt_t` followed by 43 base64url characters.",
  },
  runner: { name: "runnerToken", description: "Runner token: `agt_r…`, minted at enrolment." },
  operator: { name: "operatorToken", description: "Operator session token carrying operator scopes." },
};

/** Converts a zod schema, hoisting named subschemas into `components.schemas`. */
function convert(
  schema: z.ZodType,
  io: "input" | "output",
  components: Record<string, JsonSchema>,
): JsonSchema {
  const json = z.toJSONSchema(schema, { target: "draft-2020-12", io, unrepresentable: "any" }) as JsonSchema;
  const text = JSON.stringify(json).replaceAll('"#/$defs/', '"#/components/schemas/');
  const {
    $schema: _schema,
    $defs,
    ...rest
  } = JSON.parse(text) as JsonSchema & { $defs?: Record<string, JsonSchema> };
  for (const [name, def] of Object.entries($defs ?? {})) components[name] = def;
  return rest;
}

function errorStatuses(op: Operation): number[] {
  const statuses = [400, 500];
  if (op.credentials.length > 0) statuses.push(401);
  if (op.scope !== null) statuses.push(403);
  if (op.path.includes("{")) statuses.push(404);
  statuses.push(...(op.errorStatuses ?? []));
  if (Object.keys(op.body).length > 0) statuses.push(413, 415);
  return [...new Set(statuses)].sort();
}

const statusText: Record<number, string> = {
  400: "The request could not be read (UZ-REQ-001, UZ-REQ-002).",
  401: "No credential, or one this route does not accept.",
  403: "The credential lacks the required scope (UZ-AUTH-022).",
  404: "No such resource, or none the caller may see.",
  409: "Conflict with the current state; current_state says which.",
  503: "A dependency is unreachable (UZ-INTERNAL-002, UZ-VAULT-002), or a stream's instance holds as many subscribers as it takes (UZ-API-002); Retry-After, when sent, says when to retry.",
  304: "Not modified: the If-None-Match tag is current.",
  412: "If-Match names an older version; the body carries the current etag.",
  422: "The Idempotency-Key came with a different request than its first (UZ-REQ-008).",
  424: "A dependency of the request is missing (UZ-BUNDLE-003 names the credentials).",
  429: "The instance or workspace is at its ceiling; Retry-After says when to retry.",
  413: "The body is over the route's ceiling (UZ-REQ-006).",
  415: "The body is not application/json (UZ-REQ-003).",
  500: "The service failed to answer (UZ-INTERNAL-001).",
  502: "An upstream vendor (the model provider) could not be reached or failed (UZ-MODEL-002).",
  504: "An upstream vendor (the model provider) did not answer in time (UZ-MODEL-003).",
};

/** The OpenAPI 3.1 document of the `/v1` surface, built from the contracts alone. */
export function buildOpenApiDocument(serverUrl: string): JsonSchema {
  const components: Record<string, JsonSchema> = {};
  const paths: Record<string, Record<string, unknown>> = {};
  // Problem carries its own id, so converting it files its body under components.Problem.
  convert(problemSchema, "output", components);
  for (const op of operations) {
    const parameters = [
      ...Object.entries(op.params).map(([name, schema]) => ({
        name,
        in: "path",
        required: true,
        schema: convert(schema, "input", components),
      })),
      ...Object.entries(op.query).map(([name, schema]) => ({
        name,
        in: "query",
        required: !schema.safeParse(undefined).success,
        schema: convert(schema, "input", components),
      })),
      ...Object.entries(op.requestHeaders).map(([name, schema]) => ({
        name: headerName(name),
        in: "header",
        required: !schema.safeParse(undefined).success,
        schema: convert(schema, "input", components),
      })),
    ];
    const responses: Record<string, unknown> = {
      [op.successStatus]:
        op.successStatus === 204
          ? { description: "Done; no content." }
          : op.ndjson
            ? {
                description: "Newline-delimited JSON, streamed: one object a line, each this schema.",
                content: { "application/x-ndjson": { schema: convert(op.output, "output", components) } },
              }
            : op.relay
              ? {
                  description:
                    "The vendor's own answer, relayed: its JSON, or with `stream: true` its Server-Sent Events (`data:` chunks, then `data: [DONE]`).",
                  content: {
                    "application/json": { schema: convert(op.output, "output", components) },
                    "text/event-stream": { schema: { type: "string" } },
                  },
                }
              : op.stream
                ? {
                    description:
                      "A Server-Sent Events stream: `hello` first, then frames named by their kind whose `data:` is this schema.",
                    content: { "text/event-stream": { schema: convert(op.output, "output", components) } },
                  }
                : {
                    description: "Success.",
                    content: { "application/json": { schema: convert(op.output, "output", components) } },
                  },
    };
    for (const [status, when] of Object.entries(op.otherSuccesses ?? {})) {
      responses[status] = {
        description: `Success: ${when}`,
        content: { "application/json": { schema: convert(op.output, "output", components) } },
      };
    }
    for (const status of errorStatuses(op)) {
      if (status < 400) {
        responses[status] = { description: statusText[status] };
        continue;
      }
      responses[status] = {
        description: statusText[status],
        content: { "application/problem+json": { schema: { $ref: "#/components/schemas/Problem" } } },
      };
    }
    const operation: Record<string, unknown> = {
      operationId: op.id,
      summary: op.summary,
      ...(op.description ? { description: op.description } : {}),
      tags: op.tags,
      ...(op.deprecated ? { deprecated: true } : {}),
      security: op.credentials.map((c) => ({ [securitySchemes[c].name]: [] })),
      ...(op.scope ? { "x-required-scope": op.scope } : {}),
      ...(parameters.length > 0 ? { parameters } : {}),
      ...(Object.keys(op.body).length > 0
        ? {
            requestBody: {
              required: true,
              content: {
                "application/json": { schema: convert(z.strictObject(op.body), "input", components) },
              },
            },
          }
        : {}),
      responses,
    };
    paths[op.path] ??= {};
    paths[op.path]![op.method.toLowerCase()] = operation;
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "Fleet Control Plane API",
      version: "1.0.0",
      description: `Errors are application/problem+json; the codes: ${Object.keys(errorRegistry).length} in the registry, listed at /docs/errors.`,
    },
    servers: [{ url: serverUrl }],
    paths,
    components: {
      schemas: components,
      securitySchemes: Object.fromEntries(
        Object.values(securitySchemes).map(({ name, description }) => [
          name,
          { type: "http", scheme: "bearer", description },
        ]),
      ),
    },
  };
}
