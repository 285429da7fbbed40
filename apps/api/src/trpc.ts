import { hasScope, type Operation, Problem } from "@fleet/contracts";
import { initTRPC, type TRPC_ERROR_CODE_KEY, TRPCError } from "@trpc/server";
import type { z } from "zod";
import type { Authenticator } from "./auth/authenticate.ts";
import { type Principal, principalScopes, type TenantPrincipal } from "./auth/principal.ts";
import { toProblem } from "./http/problem.ts";
import type { ServiceContext } from "./services/context.ts";

/** Where the credential came from: the REST surface reads bearer headers, the console its cookie. */
export interface Credential {
  token: string;
  source: "header" | "cookie";
}

export interface RequestContext {
  requestId: string;
  services: ServiceContext;
  authenticator: Authenticator;
  credential: Credential | null;
  /** Whether a cookie-authenticated request carries the console's anti-forgery header. */
  csrfHeader: boolean;
  /** Receives unexpected failures with their request id; nothing of them reaches the client. */
  logError: (error: unknown) => void;
}

const trpcCodes: Record<number, TRPC_ERROR_CODE_KEY> = {
  400: "BAD_REQUEST",
  401: "UNAUTHORIZED",
  403: "FORBIDDEN",
  404: "NOT_FOUND",
  405: "METHOD_NOT_SUPPORTED",
  409: "CONFLICT",
  412: "PRECONDITION_FAILED",
  413: "PAYLOAD_TOO_LARGE",
  415: "UNSUPPORTED_MEDIA_TYPE",
  424: "PRECONDITION_FAILED",
  429: "TOO_MANY_REQUESTS",
  503: "SERVICE_UNAVAILABLE",
};

const t = initTRPC
  .context<RequestContext>()
  .meta<Operation>()
  .create({
    isDev: false,
    errorFormatter({ shape, error, ctx }) {
      const problem = toProblem(error, ctx?.logError);
      const body = problem.toBody(ctx?.requestId ?? "unknown", ctx?.services.config.docsUrl ?? "");
      return {
        code: shape.code,
        message: body.detail,
        data: { code: shape.data.code, httpStatus: problem.status, problem: body },
      };
    },
  });

export const router = t.router;

/** Gives a refusal thrown anywhere below the status its registry code names, on /trpc as on /v1. */
const problems = t.middleware(async ({ next }) => {
  const result = await next();
  if (!result.ok && result.error.cause instanceof Problem) {
    const problem = result.error.cause;
    result.error = new TRPCError({
      code: trpcCodes[problem.status] ?? "INTERNAL_SERVER_ERROR",
      message: problem.detail,
      cause: problem,
    });
  }
  return result;
});

/** Authenticates the credential and checks its class and scope against the operation's meta. */
const authorize = t.middleware(async ({ ctx, meta, type, next }) => {
  if (meta === undefined) throw new Error("every procedure carries its operation's meta");
  if (meta.credentials.length === 0) return next({ ctx: { principal: null as Principal | null } });
  const credential = ctx.credential;
  if (credential === null)
    throw new Problem("UZ-AUTH-001", { detail: "This route needs a bearer credential." });
  if (credential.source === "cookie" && type !== "query" && !ctx.csrfHeader) {
    throw new Problem("UZ-AUTH-011", { detail: "A console request must carry the x-fleet-csrf header." });
  }
  const principal = await ctx.authenticator.authenticate(credential.token, ctx.services.now());
  if (!meta.credentials.includes(principal.class)) {
    throw new Problem("UZ-AUTH-003", {
      detail: `This route does not accept a ${principal.class.replace("_", " ")} credential.`,
    });
  }
  if (meta.scope !== null && !hasScope(principalScopes(principal), meta.scope)) {
    throw new Problem("UZ-AUTH-022", { detail: `This request needs the scope ${meta.scope}.` });
  }
  return next({ ctx: { principal: principal as Principal | null } });
});

/** A procedure anyone may call (sign-in exchanges); its operation lists no credential class. */
export function publicProcedure<I extends z.ZodType, O extends z.ZodType>(
  op: Operation & { input: I; output: O },
) {
  return t.procedure.meta(op).use(problems).use(authorize).input(op.input).output(op.output);
}

/** A procedure acting for a person in a tenant (session token or tenant API key). */
export function tenantProcedure<I extends z.ZodType, O extends z.ZodType>(
  op: Operation & { input: I; output: O },
) {
  return t.procedure
    .meta(op)
    .use(problems)
    .use(authorize)
    .use(({ ctx, next }) => {
      const principal = ctx.principal;
      if (principal === null || (principal.class !== "session" && principal.class !== "api_key")) {
        throw new Error(`operation ${op.id} must accept only tenant credentials`);
      }
      return next({ ctx: { principal: principal as TenantPrincipal } });
    })
    .input(op.input)
    .output(op.output);
}
