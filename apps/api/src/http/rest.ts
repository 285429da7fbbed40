import { type Operation, operations, Problem, retiredPagingParams } from "@fleet/contracts";
import { callTRPCProcedure } from "@trpc/server";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { AppRouter } from "../router/root.ts";
import type { RequestContext } from "../trpc.ts";

/** Default body ceiling for routes that do not name one. */
export const DEFAULT_BODY_LIMIT = 64 * 1024;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Gathers an operation's input from path, query and body, refusing fields sent where they do not travel:
 * unknown and retired query parameters, and path or query fields smuggled into the body.
 */
function collectInput(op: Operation, request: FastifyRequest): Record<string, unknown> {
  const input: Record<string, unknown> = {};
  const bodyFields = Object.keys(op.body);
  if (bodyFields.length > 0 && request.body !== undefined && request.body !== null) {
    if (!isPlainObject(request.body))
      throw new Problem("UZ-REQ-001", { detail: "The body must be a JSON object." });
    for (const [key, value] of Object.entries(request.body)) {
      if (key in op.params || key in op.query)
        throw new Problem("UZ-REQ-001", { detail: `Unknown field: ${key}.` });
      input[key] = value;
    }
  }
  for (const [key, value] of Object.entries(request.query as Record<string, unknown>)) {
    if (!(key in op.query)) {
      const retired = (retiredPagingParams as readonly string[]).includes(key) || key === "sort";
      throw new Problem("UZ-REQ-001", {
        detail: retired
          ? `The query parameter ${key} is not accepted here; page with starting_after and limit.`
          : `Unknown query parameter: ${key}.`,
      });
    }
    if (Array.isArray(value))
      throw new Problem("UZ-REQ-001", { detail: `The query parameter ${key} is given more than once.` });
    if (value !== "") input[key] = value; // `?limit=` means "not given"
  }
  Object.assign(input, request.params as Record<string, string>);
  return input;
}

/**
 * Serves every operation of the contracts as a `/v1` REST route that calls the same tRPC procedure the
 * console calls: one definition, two transports, no per-request adapter machinery.
 */
export function registerRestRoutes(
  app: FastifyInstance,
  appRouter: AppRouter,
  contextFor: (request: FastifyRequest) => RequestContext,
): void {
  for (const op of Object.values(operations) as Operation[]) {
    const type = op.method === "GET" ? "query" : "mutation";
    app.route({
      method: op.method,
      url: op.path.replace(/\{(\w+)\}/g, ":$1"),
      bodyLimit: op.bodyLimit ?? DEFAULT_BODY_LIMIT,
      handler: async (request, reply) => {
        const output = await callTRPCProcedure({
          router: appRouter,
          path: op.id,
          type,
          ctx: contextFor(request),
          // Read inside the procedure, after authentication: a caller without a credential learns nothing.
          getRawInput: async () => collectInput(op, request),
          signal: undefined,
          batchIndex: 0,
        });
        reply.code(op.successStatus);
        if (op.headers) reply.headers(op.headers);
        if (op.successStatus === 204) return reply.send();
        return output;
      },
    });
  }
}
