import type { FastifyInstance, FastifyRequest } from "fastify";

const RAW_BODY = Symbol("rawBody");

/** The JSON body as the client sent it (before parsing), or null when none came. */
export function rawBodyOf(request: FastifyRequest): string | null {
  return (request as FastifyRequest & { [RAW_BODY]?: string })[RAW_BODY] ?? null;
}

/**
 * Reads `application/json` bodies as Fastify does, except that an empty one is no body: command-line
 * clients send `Content-Type: application/json` on every request, DELETEs and bodiless POSTs included,
 * and Fastify's own parser refuses that with FST_ERR_CTP_EMPTY_JSON_BODY. A non-empty body still goes
 * through Fastify's parser, with its prototype-poisoning protection and its refusals, and is kept as
 * received for `rawBodyOf`.
 */
export function acceptEmptyJsonBodies(app: FastifyInstance): void {
  const { onProtoPoisoning, onConstructorPoisoning } = app.initialConfig;
  const parse = app.getDefaultJsonParser(onProtoPoisoning ?? "error", onConstructorPoisoning ?? "error");
  app.removeContentTypeParser("application/json");
  app.addContentTypeParser("application/json", { parseAs: "string" }, (request, body, done) => {
    if (body.length === 0) {
      done(null, undefined);
      return;
    }
    const text = body.toString();
    // Kept for the routes that verify a signature over the bytes received (a signed webhook).
    (request as FastifyRequest & { [RAW_BODY]?: string })[RAW_BODY] = text;
    parse(request, text, done);
  });
}
