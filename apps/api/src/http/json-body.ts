import { Problem } from "@fleet/contracts";
import type { FastifyInstance, FastifyRequest } from "fastify";

const RAW_BODY = Symbol("rawBody");

/** The body as the client sent it (before parsing), or null when none came. */
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

export const FORM_CONTENT_TYPE = "application/x-www-form-urlencoded";

/**
 * Reads `application/x-www-form-urlencoded` bodies into an object of strings, keeping the bytes received
 * for `rawBodyOf`: a chat vendor sends its interaction deliveries so (`payload=<json>`), signed over the
 * raw form. Only operations that declare `formBody` take one; the REST adapter refuses it elsewhere with
 * 415, as any body that is not JSON. A field sent twice is refused: which one counts would be a guess.
 */
export function acceptFormBodies(app: FastifyInstance): void {
  app.addContentTypeParser(FORM_CONTENT_TYPE, { parseAs: "string" }, (request, body, done) => {
    const text = body.toString();
    if (text.length === 0) {
      done(null, undefined);
      return;
    }
    (request as FastifyRequest & { [RAW_BODY]?: string })[RAW_BODY] = text;
    const fields: Record<string, string> = Object.create(null);
    for (const [name, value] of new URLSearchParams(text)) {
      if (name in fields) {
        done(
          new Problem("UZ-REQ-001", {
            detail: `The form field ${JSON.stringify(name.slice(0, 64))} is sent more than once.`,
          }),
          undefined,
        );
        return;
      }
      fields[name] = value;
    }
    done(null, { ...fields });
  });
}
