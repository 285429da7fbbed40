import type { Socket } from "node:net";
import { hasScope, type Operation, Problem } from "@fleet/contracts";
import { initTRPC, type TRPC_ERROR_CODE_KEY, TRPCError } from "@trpc/server";
import type { z } from "zod";
import type { Authenticator } from "./auth/authenticate.ts";
import {
  type OperatorPrincipal,
  type Principal,
  principalScopes,
  type RunnerPrincipal,
  type TenantPrincipal,
} from "./auth/principal.ts";
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
  /** The console's operator cookie, offered to operator-only procedures in place of the session. */
  operatorCredential?: Credential | null;
  /** Whether a cookie-authenticated request carries the console's anti-forgery header. */
  csrfHeader: boolean;
  /** Receives unexpected failures with their request id; nothing of them reaches the client. */
  logError: (error: unknown) => void;
  /** What a resolver adds to its answer beyond the body; the REST surface applies it. */
  response: ResponseExtras;
  /** The caller's connection: a long poll stops waiting, and leases nothing, once it closes. */
  socket: Socket | null;
}

export interface ResponseExtras {
  /** Headers such as `ETag` the success carries. */
  headers?: Record<string, string>;
  /** Set when a conditional read's tag is current: REST answers 304 with no body. */
  notModified?: boolean;
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

/** A procedure's context once authorized: who is calling, for the resolver. */
export type AuthorizedContext<P extends Principal | null> = RequestContext & { principal: P };

/** The function behind an operation, called by /trpc through tRPC and by /v1 directly. */
export type Resolver<P extends Principal | null = Principal | null> = (opts: {
  ctx: AuthorizedContext<P>;
  input: never;
}) => unknown;

/** Meta of every procedure: its operation, plus the resolver the REST surface calls. */
export type ProcedureMeta = Operation & {
  resolve?: Resolver;
  audience?: "tenant" | "operator" | "runner" | "public";
};

const t = initTRPC
  .context<RequestContext>()
  .meta<ProcedureMeta>()
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

/**
 * Authenticates the credential and checks its class and scope against the operation. Both transports
 * call this: the tRPC middleware below and the REST adapter.
 */
export function authorize(
  op: Operation,
  ctx: RequestContext,
  mutation: boolean,
): Principal | null | Promise<Principal | null> {
  if (op.credentials.length === 0) return null;
  const operatorOnly = op.credentials.every((c) => c === "operator");
  const credential =
    operatorOnly && ctx.credential?.source !== "header" ? (ctx.operatorCredential ?? null) : ctx.credential;
  if (credential === null)
    throw new Problem("UZ-AUTH-001", { detail: "This route needs a bearer credential." });
  if (credential.source === "cookie" && mutation && !ctx.csrfHeader) {
    throw new Problem("UZ-AUTH-011", { detail: "A console request must carry the x-fleet-csrf header." });
  }
  const principal = ctx.authenticator.authenticate(credential.token, ctx.services.now());
  // A cached principal is checked without a promise; a database lookup is checked when it lands.
  return principal instanceof Promise ? principal.then((p) => admit(op, p)) : admit(op, principal);
}

function admit(op: Operation, principal: Principal): Principal {
  if (!op.credentials.includes(principal.class)) {
    throw new Problem("UZ-AUTH-003", {
      detail: `This route does not accept a ${principal.class.replace("_", " ")} credential.`,
    });
  }
  if (op.scope !== null && !hasScope(principalScopes(principal), op.scope)) {
    throw new Problem("UZ-AUTH-022", { detail: `This request needs the scope ${op.scope}.` });
  }
  return principal;
}

const authorized = t.middleware(async ({ ctx, meta, type, next }) => {
  if (meta === undefined) throw new Error("every procedure carries its operation's meta");
  const principal = await authorize(meta, ctx, type !== "query");
  return next({ ctx: { principal } });
});

function tenantOnly(op: Operation): void {
  if (op.credentials.length === 0 || op.credentials.some((c) => c !== "session" && c !== "api_key")) {
    throw new Error(`operation ${op.id} must accept only tenant credentials`);
  }
}

/**
 * Declares the procedure of an operation. The resolver is written once; tRPC serves it at /trpc, and the
 * REST adapter calls the same resolver (kept in the meta) after the same `authorize`, input and output
 * parsing, without tRPC's per-request middleware machinery.
 */
function declare<I extends z.ZodType, O extends z.ZodType, P extends Principal | null>(
  op: Operation & { input: I; output: O },
  audience: "tenant" | "operator" | "runner" | "public",
) {
  type Resolve = (opts: {
    ctx: AuthorizedContext<P>;
    input: z.output<I>;
  }) => z.input<O> | Promise<z.input<O>>;
  const build = (resolve: Resolve) =>
    t.procedure
      .meta({ ...op, audience, resolve: resolve as unknown as Resolver })
      .use(problems)
      .use(authorized)
      .input(op.input)
      .output(op.output);
  // The middleware chain proves the principal's class (`authorize` checks it against the operation), so
  // the resolver may see the narrower type its declaration names.
  return {
    query: (resolve: Resolve) => build(resolve).query((opts) => resolve(opts as never) as never),
    mutation: (resolve: Resolve) => build(resolve).mutation((opts) => resolve(opts as never) as never),
  };
}

/** A procedure anyone may call (sign-in exchanges); its operation lists no credential class. */
export function publicProcedure<I extends z.ZodType, O extends z.ZodType>(
  op: Operation & { input: I; output: O },
) {
  if (op.credentials.length > 0) throw new Error(`operation ${op.id} is not public`);
  return declare<I, O, null>(op, "public");
}

/** A procedure of the operator plane (platform catalogue, runners): operator tokens only. */
export function operatorProcedure<I extends z.ZodType, O extends z.ZodType>(
  op: Operation & { input: I; output: O },
) {
  if (op.credentials.length !== 1 || op.credentials[0] !== "operator") {
    throw new Error(`operation ${op.id} must accept only operator tokens`);
  }
  return declare<I, O, OperatorPrincipal>(op, "operator");
}

/** A procedure of the runner self plane (`/v1/runners/me/*`): runner tokens only. */
export function runnerProcedure<I extends z.ZodType, O extends z.ZodType>(
  op: Operation & { input: I; output: O },
) {
  if (op.credentials.length !== 1 || op.credentials[0] !== "runner") {
    throw new Error(`operation ${op.id} must accept only runner tokens`);
  }
  return declare<I, O, RunnerPrincipal>(op, "runner");
}

/** A procedure acting for a person in a tenant (session token or tenant API key). */
export function tenantProcedure<I extends z.ZodType, O extends z.ZodType>(
  op: Operation & { input: I; output: O },
) {
  tenantOnly(op);
  return declare<I, O, TenantPrincipal>(op, "tenant");
}
