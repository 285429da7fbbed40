import { z } from "zod";
import type { ToolOutcome } from "./frames.ts";

/** How long one request may take, head and body together. */
export const HTTP_TIMEOUT_MS = 30_000;
/** How much of a response body the model is given; the rest is not read. */
export const HTTP_BODY_MAX_BYTES = 64 * 1024;

export const httpRequestInput = z.object({
  method: z.enum(["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD"]).default("GET"),
  url: z.string().describe("An http(s) URL on one of the fleet's network hosts"),
  headers: z
    .record(z.string(), z.string())
    .optional()
    .describe("Request headers; a secret is written as {{secrets.NAME.field}}, never as its value"),
  body: z.string().optional().describe("The request body; may hold {{secrets.NAME.field}} placeholders"),
});
export type HttpRequestInput = z.infer<typeof httpRequestInput>;

type Secrets = ReadonlyMap<string, Record<string, unknown>>;

/** True when `host` is one of `allowed` (an exact name, or `*.example.com` for its subdomains). */
export function hostAllowed(host: string, allowed: readonly string[]): boolean {
  const name = host.toLowerCase().replace(/\.$/, "");
  return allowed.some((entry) => (entry.startsWith("*.") ? name.endsWith(entry.slice(1)) : name === entry));
}

const placeholder = /\{\{\s*secrets\.([A-Za-z0-9_.-]+?)\.([A-Za-z0-9_-]+)\s*\}\}/g;

/** Fills `{{secrets.NAME.field}}` from the lease's credentials; names the first one it cannot fill. */
export function resolvePlaceholders(text: string, secrets: Secrets): { text: string } | { missing: string } {
  let missing: string | undefined;
  const filled = text.replace(placeholder, (whole, name: string, field: string) => {
    const value = secrets.get(name)?.[field];
    if (typeof value === "string" || typeof value === "number") return String(value);
    missing ??= whole;
    return whole;
  });
  return missing === undefined ? { text: filled } : { missing };
}

/** Every secret value the lease holds, replaced by `[secret:NAME]`: what the model reads never holds one. */
export function maskSecrets(text: string, secrets: Secrets): string {
  let masked = text;
  for (const [name, data] of secrets)
    for (const value of Object.values(data))
      if ((typeof value === "string" || typeof value === "number") && String(value).length >= 4)
        masked = masked.split(String(value)).join(`[secret:${name}]`);
  return masked;
}

/** Reads at most `limit` bytes of the body, then stops reading. */
async function boundedText(response: Response, limit: number): Promise<{ text: string; truncated: boolean }> {
  if (!response.body) return { text: "", truncated: false };
  const reader = response.body.getReader();
  const parts: Uint8Array[] = [];
  let size = 0;
  let truncated = false;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    parts.push(value);
    size += value.byteLength;
    if (size > limit) {
      truncated = true;
      await reader.cancel().catch(() => undefined);
      break;
    }
  }
  const text = new TextDecoder().decode(Buffer.concat(parts).subarray(0, limit));
  return { text, truncated };
}

/**
 * The `http_request` tool: only to the fleet's `network_hosts` (anything else is refused before any
 * request), secrets filled in from placeholders after the model wrote the call, redirects not followed
 * (one could lead off the allowed hosts), 30 s and 64 KiB of body at most; the answer the model reads has
 * every secret value masked out.
 */
export async function httpRequest(
  input: HttpRequestInput,
  context: { networkHosts: readonly string[]; secrets: Secrets; signal: AbortSignal },
): Promise<ToolOutcome> {
  let url: URL;
  try {
    url = new URL(input.url);
  } catch {
    return { status: "refused", output: `Refused: "${input.url}" is not a URL.` };
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    return {
      status: "refused",
      output: `Refused: only http and https URLs are allowed, not ${url.protocol}`,
    };
  if (!hostAllowed(url.hostname, context.networkHosts)) {
    const hosts = context.networkHosts.length > 0 ? context.networkHosts.join(", ") : "none";
    return {
      status: "refused",
      output: `Refused: ${url.hostname} is not one of the fleet's network hosts (${hosts}). No request was sent.`,
    };
  }
  const headers = new Headers();
  for (const [name, value] of Object.entries(input.headers ?? {})) {
    const filled = resolvePlaceholders(value, context.secrets);
    if ("missing" in filled) return unresolved(filled.missing);
    headers.set(name, filled.text);
  }
  let body: string | undefined;
  if (input.body !== undefined && input.method !== "GET" && input.method !== "HEAD") {
    const filled = resolvePlaceholders(input.body, context.secrets);
    if ("missing" in filled) return unresolved(filled.missing);
    body = filled.text;
  }
  const signal = AbortSignal.any([context.signal, AbortSignal.timeout(HTTP_TIMEOUT_MS)]);
  let response: Response;
  try {
    response = await fetch(url, { method: input.method, headers, body, signal, redirect: "manual" });
  } catch (error) {
    if (context.signal.aborted) throw error;
    const cause = (error as { cause?: { code?: string } }).cause?.code;
    const why = signal.aborted ? `no answer within ${HTTP_TIMEOUT_MS / 1000} s` : (cause ?? "failed");
    return { status: "error", output: `The request to ${url.host} failed: ${why}.` };
  }
  const read = await boundedText(response, HTTP_BODY_MAX_BYTES).catch(() => ({ text: "", truncated: true }));
  const location = response.headers.get("location");
  const lines = [
    `HTTP ${response.status}`,
    ...(location ? [`location: ${location} (redirects are not followed)`] : []),
    ...(read.truncated ? [`(body cut at ${HTTP_BODY_MAX_BYTES} bytes)`] : []),
    "",
    read.text,
  ];
  return { status: response.ok ? "ok" : "error", output: maskSecrets(lines.join("\n"), context.secrets) };
}

function unresolved(placeholderText: string): ToolOutcome {
  return {
    status: "refused",
    output: `Refused: ${placeholderText} names a secret this fleet does not hold. No request was sent.`,
  };
}
