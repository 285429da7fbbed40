import type { Socket } from "node:net";
import { type CredentialClass, type Operation, Problem } from "@fleet/contracts";
import { type AnyProcedure, initTRPC, type TRPC_ERROR_CODE_KEY, TRPCError } from "@trpc/server";
import type { z } from "zod";
import { authorize, type Caller } from "./auth/authorize.ts";
import { assertFleetBinding } from "./auth/fleet-keys.ts";
import type { Principal } from "./auth/principal.ts";
import type { RateLimits } from "./auth/rate-limits.ts";
import type { RelayAnswer } from "./http/relay.ts";
import { toProblem } from "./runtime/problems.ts";
import type { Bucket } from "./runtime/rate-limiter.ts";
import type { StreamSubscription } from "./runtime/stream-hub.ts";
import { type Actor, principalLabel, type RequestRef } from "./services/shared/audit.ts";
import type { ServiceContext } from "./services/shared/context.ts";

export interface RequestContext extends Caller {
  /** The server's own id of this request (never the caller's). */
  requestId: string;
  /** The caller's `X-Request-Id`, when it sent a sane one: kept beside `requestId`, never in its place. */
  clientRequestId: string | null;
  /** The rate limits calls count against; null when they are turned off. */
  limits: RateLimits | null;
  services: ServiceContext;
  /** Receives unexpected failures with their request id; nothing of them reaches the client. */
  logError: (error: unknown) => void;
  /** What a resolver adds to its answer beyond the body; the REST surface applies it. */
  response: ResponseExtras;
  /** The caller's connection: a long poll stops waiting, and leases nothing, once it closes. */
  socket: Socket | null;
  /**
   * The JSON body exactly as the client sent it, for an operation that verifies a signature over it (a
   * parsed and re-serialised body would not verify). The REST surface sets it; null on /trpc and when no
   * body came.
   */
  rawBody: string | null;
  /** The client's address: the connection's peer, or what a trusted proxy forwarded (`FLEET_TRUSTED_PROXIES`). */
  clientAddress: () => string;
  /**
   * A cookie the request carries, whatever the transport: the connector callback reads the browser's
   * binding and who is signed in to the console from it (never a credential that authorizes a call).
   */
  cookie: (name: string) => string | null;
}

export interface ResponseExtras {
  /** Headers such as `ETag` the success carries. */
  headers?: Record<string, string>;
  /** Set when a conditional read's tag is current: REST answers 304 with no body. */
  notModified?: boolean;
  /**
   * A success status other than the operation's own, one its contract lists in `otherSuccesses` (200 for
   * an open that found its gate existing).
   */
  status?: 200 | 201 | 202;
  /** The rate-limit bucket the call spent a token of, for the RateLimit-* headers of /trpc answers. */
  rateLimit?: Bucket;
  /** `Set-Cookie` lines the success carries (a connect's browser binding); both transports apply them. */
  cookies?: string[];
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

/** Who acts in this request, and the request's id: what an audited service records. */
export function actorOf(ctx: AuthorizedContext<Principal>): Actor {
  return {
    principal: principalLabel(ctx.principal),
    requestId: ctx.requestId,
    clientRequestId: ctx.clientRequestId,
  };
}

/** The request's ids alone, for a service that names its actor itself (an unauthenticated sign-in). */
export function requestOf(ctx: RequestContext): RequestRef {
  return { requestId: ctx.requestId, clientRequestId: ctx.clientRequestId };
}

/** The function behind an operation, called by /trpc through tRPC and by /v1 directly. */
export type Resolver<P extends Principal | null = Principal | null> = (opts: {
  ctx: AuthorizedContext<P>;
  input: never;
}) => unknown;

/** Meta of every procedure: its operation, plus the resolver the REST surface calls. */
export type ProcedureMeta = Operation & { resolve?: Resolver };

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

const authorized = t.middleware(async ({ ctx, meta, type, next, getRawInput }) => {
  if (meta === undefined) throw new Error("every procedure carries its operation's meta");
  const principal = await authorize(meta, ctx, type !== "query");
  if (ctx.limits !== null) {
    const input =
      principal !== null && meta.path.startsWith(WORKSPACE_ROUTES)
        ? ((await getRawInput()) as { workspace_id?: unknown } | null | undefined)
        : undefined;
    const bucket = await ctx.limits.admit(
      principal,
      input?.workspace_id,
      principal === null ? { route: meta.id, address: ctx.clientAddress } : undefined,
    );
    if (bucket !== null) ctx.response.rateLimit = bucket;
  }
  return next({ ctx: { principal } });
});

/** The routes whose calls also count against their workspace's quota. */
export const WORKSPACE_ROUTES = "/v1/workspaces/{workspace_id}";

/** The principal an operation's credential classes admit: `authorize` proves it before the resolver runs. */
type PrincipalOf<C extends readonly CredentialClass[]> = C extends readonly []
  ? null
  : Extract<Principal, { class: C[number] }>;

/** A procedure that remembers its operation's id in its type, so a resource router can key it by verb. */
export type Named<Id extends string, T> = T & { readonly [OPERATION_ID]?: Id };
declare const OPERATION_ID: unique symbol;

/**
 * Declares the procedure of an operation. The resolver is written once; tRPC serves it at /trpc, and the
 * REST adapter calls the same resolver (kept in the meta) after the same `authorize`, input and output
 * parsing, without tRPC's per-request middleware machinery. The principal the resolver sees follows from
 * the credential classes the operation accepts.
 */
export function procedure<
  I extends z.ZodType,
  O extends z.ZodType,
  Id extends string,
  C extends readonly CredentialClass[],
>(op: Operation & { input: I; output: O; id: Id; credentials: C }) {
  type Resolve = (opts: {
    ctx: AuthorizedContext<PrincipalOf<C>>;
    input: z.output<I>;
  }) => z.input<O> | Promise<z.input<O>>;
  // A fleet key's input is held to its fleet before any resolver runs, on /trpc as on /v1 (which calls
  // the resolver kept in the meta).
  const bound = <F extends (opts: { ctx: AuthorizedContext<PrincipalOf<C>>; input: z.output<I> }) => unknown>(
    resolve: F,
  ) =>
    ((opts: Parameters<F>[0]) => {
      assertFleetBinding(opts.ctx.principal, opts.input);
      return resolve(opts);
    }) as F;
  const build = (resolve: Resolve) =>
    t.procedure
      .meta({ ...op, resolve: resolve as unknown as Resolver })
      .use(problems)
      .use(authorized)
      .input(op.input)
      .output(op.output);
  type ResolveStream = (opts: {
    ctx: AuthorizedContext<PrincipalOf<C>>;
    input: z.output<I>;
  }) => StreamSubscription | Promise<StreamSubscription>;
  type ResolveLines = (opts: {
    ctx: AuthorizedContext<PrincipalOf<C>>;
    input: z.output<I>;
  }) => AsyncIterable<z.input<O>> | Promise<AsyncIterable<z.input<O>>>;
  type ResolveRelay = (opts: {
    ctx: AuthorizedContext<PrincipalOf<C>>;
    input: z.output<I>;
  }) => Promise<RelayAnswer>;
  /** An operation only the REST surface serves: over /trpc the same checks run, then 405. */
  const restOnly = (resolve: (opts: never) => unknown, kind: string) => {
    // A read checks access before it refuses; a relayed call is refused as it is (resolving forwards it).
    const refuse = async (opts: unknown): Promise<never> => {
      if (op.method === "GET") await resolve(opts as never);
      throw new Problem("UZ-REQ-005", {
        detail: `${op.id} is ${kind}; open it at ${op.method} ${op.path}.`,
        headers: { allow: op.method },
      });
    };
    const base = t.procedure
      .meta({ ...op, resolve: resolve as unknown as Resolver })
      .use(problems)
      .use(authorized)
      .input(op.input);
    const built = op.method === "GET" ? base.query(refuse) : base.mutation(refuse);
    return built as Named<Id, typeof built>;
  };
  return {
    /**
     * A Server-Sent Events operation (`stream: true`): the resolver checks access and says what to
     * subscribe to; the REST surface serves the stream.
     */
    stream: (unbound: ResolveStream) => restOnly(bound(unbound), "a text/event-stream"),
    /**
     * A newline-delimited JSON operation (`ndjson: true`): the resolver checks access and answers the
     * lines; the REST surface streams them (`http/ndjson.ts`).
     */
    lines: (unbound: ResolveLines) => restOnly(bound(unbound), "application/x-ndjson"),
    /** A relayed vendor answer (`relay: true`): the resolver answers it, the REST surface writes it. */
    relay: (unbound: ResolveRelay) => restOnly(bound(unbound), "a relayed vendor answer"),
    query: (unbound: Resolve) => {
      const resolve = bound(unbound);
      const built = build(resolve).query((opts) => resolve(opts as never) as never);
      return built as Named<Id, typeof built>;
    },
    mutation: (unbound: Resolve) => {
      const resolve = bound(unbound);
      const built = build(resolve).mutation((opts) => resolve(opts as never) as never);
      return built as Named<Id, typeof built>;
    },
  };
}

type VerbOf<Id> = Id extends `${string}.${infer Verb}` ? Verb : never;
type IdOf<T> = T extends { readonly [OPERATION_ID]?: infer Id } ? Id : never;

/**
 * A resource's router: each procedure keyed by the verb of its operation id (`fleets.update` → `update`),
 * so the id is written once, in the contract.
 */
export function resource<const P extends readonly Named<string, AnyProcedure>[]>(...procedures: P) {
  const record: Record<string, AnyProcedure> = {};
  for (const built of procedures) {
    const id = (built._def.meta as ProcedureMeta | undefined)?.id ?? "";
    const verb = id.slice(id.indexOf(".") + 1);
    if (verb === "" || verb in record) throw new Error(`procedure ${id} has no unique verb`);
    record[verb] = built;
  }
  return router(record as { [K in P[number] as VerbOf<IdOf<K>>]: K });
}
