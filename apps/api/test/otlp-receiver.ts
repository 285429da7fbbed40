import { createServer, type Server } from "node:http";
import { expect } from "vitest";

/** One span as an OTLP/HTTP JSON export carries it, its attributes flattened (and its service's name). */
export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  startTimeUnixNano: string;
  endTimeUnixNano: string;
  attributes: Record<string, string | number | boolean>;
}

/** A tiny OTLP/HTTP receiver: keeps every span of every JSON export it is sent to `/v1/traces`. */
export function otlpReceiver(): Promise<{ url: string; spans: ReceivedSpan[]; server: Server }> {
  const spans: ReceivedSpan[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      expect(request.url).toBe("/v1/traces");
      expect(request.headers["content-type"]).toMatch(/^application\/json/);
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
      for (const resource of body.resourceSpans ?? [])
        for (const scope of resource.scopeSpans ?? [])
          for (const span of scope.spans ?? []) {
            const attributes: ReceivedSpan["attributes"] = {};
            for (const { key, value: v } of span.attributes ?? [])
              attributes[key] = v.stringValue ?? v.boolValue ?? Number(v.intValue ?? v.doubleValue);
            attributes["service.name"] =
              resource.resource?.attributes?.find((a: { key: string }) => a.key === "service.name")?.value
                ?.stringValue ?? "";
            spans.push({ ...span, attributes });
          }
      response.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address !== null ? address.port : 0;
      resolve({ url: `http://127.0.0.1:${port}`, spans, server });
    }),
  );
}
