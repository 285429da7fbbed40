import type { ServerResponse } from "node:http";
import { headerName, type Operation, Problem, retiredPagingParams } from "@fleet/contracts";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { authorize } from "../auth/authorize.ts";
import { operations } from "../router/root.ts";
import { describeIssue, internal } from "../runtime/problems.ts";
import type { StreamSubscription } from "../runtime/stream-hub.ts";
import { type RequestContext, WORKSPACE_ROUTES } from "../trpc.ts";
import type { EventStreams } from "./event-stream.ts";
import { FORM_CONTENT_TYPE, rawBodyOf } from "./json-body.ts";
import { sendLines } from "./ndjson.ts";
import { type RelayAnswer, sendRelay } from "./relay.ts";
import { fleetResponse, ROUTE } from "./responses.ts";

/** Default body ceiling for routes that do not name one. */
export const DEFAULT_BODY_LIMIT = 64 * 1024;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Where an operation's input fields travel, worked out once per route rather than per request. */
interface InputPlan {
  op: Operation;
  takesBody: boolean;
  /** GET: Fastify does not read its body, so one sent is refused by its headers. */
  unread: boolean;
  headerFields: [field: string, header: string][];
}

function planInput(op: Operation): InputPlan {
  return {
    op,
    takesBody: Object.keys(op.body).length > 0,
    unread: op.method === "GET",
    headerFields: Object.keys(op.requestHeaders).map((field) => [field, headerName(field)]),
  };
}

/**
 * Gathers an operation's input from path, query and body, refusing fields sent where they do not travel:
 * unknown and retired query parameters, and path or query fields smuggled into the body.
 */
function collectInput({ op, takesBody, unread, headerFields }: InputPlan, request: FastifyRequest) {
  const input: Record<string, unknown> = {};
  if (!op.formBody && request.headers["content-type"]?.toLowerCase().startsWith(FORM_CONTENT_TYPE))
    throw new Problem("UZ-REQ-003", { detail: "The body must be application/json." });
  if (
    unread &&
    ((request.headers["content-length"] ?? "0") !== "0" || request.headers["transfer-encoding"] !== undefined)
  )
    throw new Problem("UZ-REQ-001", { detail: `${op.method} ${op.path} takes no body.` });
  // No body is `undefined`; a JSON `null` is a body, and not the object every route's contract requires.
  if (request.body !== undefined) {
    if (!isPlainObject(request.body))
      throw new Problem("UZ-REQ-001", { detail: "The body must be a JSON object." });
    for (const [key, value] of Object.entries(request.body)) {
      // Bodies are closed, also where a route takes none (an empty object is no field at all); a field
      // that travels as a header (a signature) is never taken from the body.
      if (!takesBody || key in op.params || key in op.query || key in op.requestHeaders)
        throw new Problem("UZ-REQ-001", { detail: `Unknown field: ${key}.` });
      input[key] = value;
    }
  }
  const query = request.query as Record<string, unknown>;
  for (const key in query) {
    const value = query[key];
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
  for (const [field, header] of headerFields) {
    const value = request.headers[header];
    if (typeof value === "string") input[field] = value;
  }
  const params = request.params as Record<string, string>;
  for (const key in params) input[key] = params[key];
  return input;
}

/**
 * Serves every procedure of the router as its operation's `/v1` REST route. The route runs the same
 * `authorize`, input parsing, resolver and output parsing as the tRPC procedure, without tRPC's
 * per-request middleware machinery (which costs more than the rest of the request together). A stream
 * operation's resolver answers what to subscribe to, and `streams` serves it on the raw response; until
 * then a refusal is a problem like any other.
 */
export function registerRestRoutes(
  app: FastifyInstance,
  contextFor: (request: FastifyRequest) => RequestContext,
  streams: EventStreams,
): void {
  for (const op of operations) {
    const resolve = op.resolve as (opts: {
      ctx: RequestContext & { principal: unknown };
      input: unknown;
    }) => unknown;
    const mutation = op.method !== "GET";
    const plan = planInput(op);
    const url = op.path.replace(/\{(\w+)\}/g, ":$1");
    const inWorkspace = op.path.startsWith(WORKSPACE_ROUTES);
    app.route({
      method: op.method,
      url,
      bodyLimit: op.bodyLimit ?? DEFAULT_BODY_LIMIT,
      handler: async (request, reply) => {
        (reply.raw as ServerResponse & { [ROUTE]?: string })[ROUTE] = url;
        const ctx = contextFor(request);
        ctx.rawBody = rawBodyOf(request);
        const authorized = authorize(op, ctx, mutation);
        const principal = authorized instanceof Promise ? await authorized : authorized;
        if (ctx.limits !== null) {
          const workspaceId = inWorkspace
            ? (request.params as { workspace_id: string }).workspace_id
            : undefined;
          const admitted = ctx.limits.admit(
            principal,
            workspaceId,
            principal === null ? { route: op.id, address: ctx.clientAddress } : undefined,
          );
          const bucket = admitted instanceof Promise ? await admitted : admitted;
          // On the response, so a refusal further on carries them too.
          if (bucket !== null) fleetResponse(reply.raw).countedAgainst(bucket);
        }
        const input = op.input.safeParse(collectInput(plan, request));
        if (!input.success)
          throw new Problem("UZ-REQ-001", { detail: describeIssue(input.error.issues[0]!) });
        if (op.stream) {
          const slot = streams.admit(principal!);
          try {
            const result = await resolve({ ctx: Object.assign(ctx, { principal }), input: input.data });
            const recheck = async (full: boolean) => {
              const again = await authorize(op, ctx, false);
              if (full) await resolve({ ctx: Object.assign(ctx, { principal: again }), input: input.data });
            };
            await streams.open(reply, result as StreamSubscription, principal!, recheck, slot);
          } catch (error) {
            slot.release();
            throw error;
          }
          return reply;
        }
        const result = await resolve({ ctx: Object.assign(ctx, { principal }), input: input.data });
        if (op.ndjson) return sendLines(reply, op, result as AsyncIterable<unknown>, ctx.logError);
        if (op.relay) return sendRelay(reply, result as RelayAnswer, ctx.logError);
        if (op.headers) reply.headers(op.headers);
        if (ctx.response.headers !== undefined) reply.headers(ctx.response.headers);
        if (ctx.response.cookies !== undefined) reply.header("set-cookie", ctx.response.cookies);
        if (ctx.response.notModified) return reply.code(304).send();
        const status = ctx.response.status ?? op.successStatus;
        if (status !== op.successStatus && !(status in (op.otherSuccesses ?? {}))) {
          ctx.logError(new Error(`${op.id} answered ${status}, which its contract does not list`));
          throw internal();
        }
        reply.code(status);
        if (op.successStatus === 204) return reply.send();
        const output = op.output.safeParse(result);
        if (!output.success) {
          ctx.logError(
            new Error(`${op.id} answered outside its contract: ${describeIssue(output.error.issues[0]!)}`),
          );
          throw internal();
        }
        return output.data;
      },
    });
  }
}
