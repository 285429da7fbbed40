import { z } from "zod";

/** Ceilings of a definition's `requires.mcp_servers` (past a count: 413 UZ-LIBRARY-011, as the others). */
export const MCP_CEILINGS = {
  servers: 16,
  toolsPerServer: 128,
  headers: 16,
  urlBytes: 2048,
  headerValueBytes: 4096,
  /** An MCP tool's name, as the MCP specification bounds it. */
  toolNameChars: 128,
} as const;

const CEILING = { ceiling: true } as const;
const utf8 = new TextEncoder();
const approval = z.enum(["required"], { error: 'must be "required" (or left out)' }).optional();

/** A server's name: what its tools are offered to the model under (`<server>__<tool>`). */
export const mcpServerName = z
  .string({ error: "must be a string" })
  .regex(/^[a-z0-9_]{1,32}$/, { error: "must be 1 to 32 lower-case letters, digits or _" });

const mcpToolEntry = z.strictObject(
  {
    name: z
      .string({ error: "must be a string" })
      .regex(/^[A-Za-z0-9_.-]+$/, { error: "must be letters, digits, _, . or - (an MCP tool's name)" })
      .max(MCP_CEILINGS.toolNameChars, { error: `must be at most ${MCP_CEILINGS.toolNameChars} characters` }),
    approval,
  },
  { error: "must be {name, approval}" },
);

const loneSurrogate = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** No lone UTF-16 surrogate (YAML's "\ud800" makes one): it is not Unicode, and the store would alter it. */
const wellFormed = [
  (value: string) => !loneSurrogate.test(value),
  { error: "must be well-formed Unicode (it holds a lone UTF-16 surrogate)" },
] as const;

const mcpUrl = z
  .string({ error: "must be a string" })
  .refine(...wellFormed)
  .refine((value) => utf8.encode(value).length <= MCP_CEILINGS.urlBytes, {
    error: `must be at most ${MCP_CEILINGS.urlBytes} bytes`,
    params: CEILING,
  })
  .superRefine((value, ctx) => {
    const url = URL.canParse(value) ? new URL(value) : null;
    if (url === null) ctx.addIssue({ code: "custom", message: "must be an absolute http or https URL" });
    else if (url.protocol !== "http:" && url.protocol !== "https:")
      ctx.addIssue({ code: "custom", message: `must be an http or https URL, not ${url.protocol}` });
    else if (url.username !== "" || url.password !== "")
      ctx.addIssue({
        code: "custom",
        message: "must not carry a user or password (put credentials in headers as {{secrets.NAME.field}})",
      });
  });

// biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
const headerControls = /[\u0000-\u001f\u007f]/;

const mcpHeaders = z
  .record(
    z.string().regex(/^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,100}$/, { error: "must be an HTTP header name" }),
    z
      .string({ error: "must be a string" })
      .refine(...wellFormed)
      .refine((value) => !headerControls.test(value), { error: "must not contain control characters" })
      .refine((value) => utf8.encode(value).length <= MCP_CEILINGS.headerValueBytes, {
        error: `must be at most ${MCP_CEILINGS.headerValueBytes} bytes`,
        params: CEILING,
      }),
    { error: "must be a mapping of header names to values" },
  )
  .refine((value) => Object.keys(value).length <= MCP_CEILINGS.headers, {
    error: `must hold at most ${MCP_CEILINGS.headers} headers`,
    params: CEILING,
  });

/** One declared MCP server: reached over Streamable HTTP; approval for all its tools or per tool. */
const mcpServerEntry = z.strictObject(
  {
    name: mcpServerName,
    url: mcpUrl,
    approval,
    headers: mcpHeaders.optional(),
    tools: z
      .array(mcpToolEntry, { error: "must be a list of {name, approval}" })
      .refine((value) => value.length <= MCP_CEILINGS.toolsPerServer, {
        error: `must hold at most ${MCP_CEILINGS.toolsPerServer} tools`,
        params: CEILING,
      })
      .superRefine((entries, ctx) => {
        const seen = new Set<string>();
        for (const [index, { name }] of entries.entries()) {
          if (seen.has(name))
            ctx.addIssue({ code: "custom", path: [index], message: `names the tool ${name} again` });
          seen.add(name);
        }
      })
      .optional(),
  },
  { error: "must be {name, url, approval?, headers?, tools?}" },
);

export const mcpServers = z
  .array(mcpServerEntry, { error: "must be a list of {name, url, approval?, headers?, tools?}" })
  .refine((value) => value.length <= MCP_CEILINGS.servers, {
    error: `must hold at most ${MCP_CEILINGS.servers} servers`,
    params: CEILING,
  })
  .superRefine((entries, ctx) => {
    const seen = new Map<string, number>();
    for (const [index, { name }] of entries.entries()) {
      const first = seen.get(name);
      if (first !== undefined)
        ctx.addIssue({
          code: "custom",
          path: [index, "name"],
          message: `names the server ${name} again (requires.mcp_servers[${first}] already does)`,
        });
      else seen.set(name, index);
    }
  });
export type McpServerEntry = z.output<typeof mcpServerEntry>;

/** True when `host` is one of `allowed`: an exact name, or `*.example.com` for its subdomains. */
export function hostInNetworkHosts(host: string, allowed: readonly string[]): boolean {
  const name = host.toLowerCase().replace(/\.$/, "");
  return allowed.some((entry) => (entry.startsWith("*.") ? name.endsWith(entry.slice(1)) : name === entry));
}

const placeholder = /\{\{\s*secrets\.([A-Za-z0-9_.-]+?)\.([A-Za-z0-9_-]+)\s*\}\}/g;

/**
 * The cross-field rules of `requires`: each MCP server's host is one of `network_hosts`, and a secret
 * placeholder in its headers names a declared credential (the lease carries only those).
 */
export function mcpServersReachable(
  requires: { mcp_servers: McpServerEntry[]; network_hosts: string[]; credentials: { name: string }[] },
  ctx: z.RefinementCtx,
): void {
  // Runs even when a field already failed (the refinement sees what parsed): nothing is taken for granted.
  if (!Array.isArray(requires.mcp_servers) || !Array.isArray(requires.network_hosts)) return;
  const credentials = Array.isArray(requires.credentials) ? requires.credentials : [];
  const declared = new Set(credentials.map((credential) => credential?.name));
  for (const [index, server] of requires.mcp_servers.entries()) {
    if (typeof server?.url !== "string" || !URL.canParse(server.url)) continue;
    const host = new URL(server.url).hostname.replace(/^\[(.*)\]$/, "$1");
    if (!hostInNetworkHosts(host, requires.network_hosts)) {
      ctx.addIssue({
        code: "custom",
        path: ["mcp_servers", index, "url"],
        message: `names the host ${host}, which is not one of requires.network_hosts`,
      });
      return;
    }
    const headers = typeof server.headers === "object" && server.headers !== null ? server.headers : {};
    for (const [header, value] of Object.entries(headers))
      for (const [whole, name] of typeof value === "string" ? value.matchAll(placeholder) : [])
        if (!declared.has(name!)) {
          ctx.addIssue({
            code: "custom",
            path: ["mcp_servers", index, "headers", header],
            message: `names the secret ${name} (${whole}), which is not one of requires.credentials`,
          });
          return;
        }
  }
}
