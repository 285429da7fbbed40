import { Problem } from "@fleet/contracts";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { operations } from "../router/root.ts";

/** A route pattern the service answers: its methods, and whether any of them takes no credential. */
interface KnownPath {
  methods: Set<string>;
  open: boolean;
}

/** `METHOD /v1/…/:param` of every operation that needs a credential. */
const guarded = new Set(
  operations
    .filter((op) => op.credentials.length > 0)
    .map((op) => `${op.method} ${op.path.replace(/\{(\w+)\}/g, ":$1")}`),
);

/**
 * Answers requests no route takes: 405 with Allow for a known path and a wrong method, 404 otherwise.
 * Under `/v1` the credential is checked first (except on a path that takes none), so a made-up key
 * probing for a route this service lacks gets the 401 it would get on any real route, not a 404 that
 * reads as "the key works".
 *
 * `authenticate` throws the refusal for a missing or invalid credential; any valid class passes.
 */
export function registerNotFound(
  app: FastifyInstance,
  authenticate: (request: FastifyRequest) => void | Promise<void>,
): void {
  const known = new Map<string, KnownPath & { pattern: RegExp }>();
  app.addHook("onRoute", (route) => {
    const source = `^${route.url.replace(/:[^/]+/g, "[^/]+")}/?$`;
    let entry = known.get(source);
    if (entry === undefined) {
      entry = { pattern: new RegExp(source), methods: new Set(), open: false };
      known.set(source, entry);
    }
    for (const method of [route.method].flat()) {
      entry.methods.add(method);
      if (method !== "HEAD" && !guarded.has(`${method} ${route.url}`)) entry.open = true;
    }
  });
  app.setNotFoundHandler(async (request) => {
    const path = request.url.split("?")[0]!;
    const matched = [...known.values()].find(
      (entry) => entry.pattern.test(path) && !entry.methods.has(request.method),
    );
    if ((path === "/v1" || path.startsWith("/v1/")) && matched?.open !== true) await authenticate(request);
    if (matched !== undefined) {
      const allow = [...matched.methods].filter((method) => method !== "HEAD").join(", ");
      throw new Problem("UZ-REQ-005", {
        detail: `${path} does not take ${request.method}; it takes ${allow}.`,
        headers: { allow },
      });
    }
    throw new Problem("UZ-REQ-004", { detail: `No route matches ${request.method} ${path}.` });
  });
}
