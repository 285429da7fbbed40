import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { errorRegistry } from "@fleet/contracts";
import type { FastifyInstance } from "fastify";

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The page every problem's docs_uri points into: one anchored row per registry code. */
export function errorsPage(): string {
  const rows = Object.entries(errorRegistry)
    .map(
      ([code, entry]) =>
        `<tr id="${code}"><td><a href="#${code}"><code>${code}</code></a></td><td>${entry.status}</td><td>${escapeHtml(entry.title)}</td><td>${escapeHtml(entry.meaning)}</td></tr>`,
    )
    .join("\n");
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Error codes · Fleet Control Plane</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>body{font:15px/1.5 system-ui,sans-serif;margin:2rem auto;max-width:70rem;padding:0 1rem;color:#1d2330}
table{border-collapse:collapse;width:100%}td,th{border-bottom:1px solid #dde2ea;padding:.45rem .6rem;text-align:left;vertical-align:top}
tr:target{background:#fff6d6}code{font-size:.95em}</style></head>
<body><h1>Error codes</h1><p>Every refusal is <code>application/problem+json</code> with <code>error_code</code>, <code>title</code>, <code>detail</code>, <code>docs_uri</code> and <code>request_id</code>. Codes are stable across releases. The API reference is at <a href="/docs">/docs</a>.</p>
<table><thead><tr><th>Code</th><th>Status</th><th>Title</th><th>Meaning</th></tr></thead><tbody>
${rows}
</tbody></table></body></html>`;
}

const referencePage = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>API reference · Fleet Control Plane</title>
<meta name="viewport" content="width=device-width, initial-scale=1"></head>
<body><script id="api-reference" data-url="/v1/openapi.json"></script><script src="/docs/reference.js"></script></body></html>`;

/**
 * The documentation pages are never shown inside another site's frame: a framed page could be overlaid to
 * steer a reader's clicks (the reference's "try it" sends requests with what the reader types).
 */
const noFraming = { "content-security-policy": "frame-ancestors 'none'", "x-frame-options": "DENY" };

/**
 * `/docs` (the API reference, rendered by Scalar from the served OpenAPI document) and `/docs/errors`.
 * The document is built on its first request: generating it walks every contract's JSON Schema, a
 * tenth of the start-up time otherwise.
 */
export function registerDocs(app: FastifyInstance, buildOpenApiDocument: () => unknown): void {
  const require = createRequire(import.meta.url);
  let script: string | null = null;
  let openApiDocument: unknown = null;
  app.get("/v1/openapi.json", async () => {
    openApiDocument ??= buildOpenApiDocument();
    return openApiDocument;
  });
  app.get("/docs", async (_request, reply) =>
    reply.type("text/html; charset=utf-8").headers(noFraming).send(referencePage),
  );
  app.get("/docs/reference.js", async (_request, reply) => {
    script ??= readFileSync(
      join(dirname(require.resolve("@scalar/api-reference")), "browser", "standalone.js"),
      "utf8",
    );
    return reply
      .type("text/javascript; charset=utf-8")
      .header("cache-control", "public, max-age=86400")
      .send(script);
  });
  const errors = errorsPage();
  app.get("/docs/errors", async (_request, reply) =>
    reply.type("text/html; charset=utf-8").headers(noFraming).send(errors),
  );
}
