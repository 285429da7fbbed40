import type { FastifyInstance } from "fastify";

/**
 * Reads `application/json` bodies as Fastify does, except that an empty one is no body: command-line
 * clients send `Content-Type: application/json` on every request, DELETEs and bodiless POSTs included,
 * and Fastify's own parser refuses that with FST_ERR_CTP_EMPTY_JSON_BODY. A non-empty body still goes
 * through Fastify's parser, with its prototype-poisoning protection and its refusals.
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
    parse(request, body.toString(), done);
  });
}
