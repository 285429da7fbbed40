import type { ServerResponse } from "node:http";
import type { TRPCError } from "@trpc/server";
import { type CreateFastifyContextOptions, fastifyTRPCPlugin } from "@trpc/server/adapters/fastify";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { appRouter, operations } from "../router/root.ts";
import { toProblem } from "../runtime/problems.ts";
import type { RequestContext } from "../trpc.ts";
import { ROUTE } from "./responses.ts";

const procedureIds = new Set(operations.map((op) => op.id));

/**
 * `/trpc`, the console's surface: the same procedures as `/v1` (the same authorize, limits and parsing)
 * through tRPC's Fastify adapter, with the same route labels, refusal headers and RateLimit-* headers.
 */
export async function registerTrpcRoute(
  app: FastifyInstance,
  contextFor: (request: FastifyRequest) => RequestContext,
): Promise<void> {
  await app.register(async (scope) => {
    // The tRPC plugin reads JSON bodies as raw text and fails on an empty one, which is no input: the
    // same as an empty object, as on /v1.
    scope.addHook("preValidation", async (request) => {
      if (request.body === "") request.body = "{}";
    });
    await scope.register(fastifyTRPCPlugin, {
      prefix: "/trpc",
      trpcOptions: {
        router: appRouter,
        createContext: ({ req, res, info }: CreateFastifyContextOptions) => {
          // The route label of a call to one known procedure is its operation id; a batch stays unmatched.
          const [call, ...more] = info.calls;
          if (call !== undefined && more.length === 0 && procedureIds.has(call.path))
            (res.raw as ServerResponse & { [ROUTE]?: string })[ROUTE] = `/trpc/${call.path}`;
          return contextFor(req);
        },
        // A refusal's own headers (Retry-After) and the RateLimit-* headers, as /v1 answers them.
        responseMeta: ({ ctx, errors }: { ctx?: RequestContext; errors: readonly TRPCError[] }) => {
          const headers: Record<string, string | string[]> = {};
          // First, so a refusal's own values win in a batch whose other call was admitted (as on /v1).
          ctx?.response.rateLimit?.writeAdmittedHeaders(headers);
          // The problem each error answers (a refusal, or the database out of reach: Retry-After); logged
          // once, by the error formatter.
          for (const error of errors) Object.assign(headers, toProblem(error).headers);
          if (ctx?.response.cookies !== undefined && errors.length === 0)
            headers["set-cookie"] = ctx.response.cookies;
          return { headers };
        },
      },
    });
  });
}
