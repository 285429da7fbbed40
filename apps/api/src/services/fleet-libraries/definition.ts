import {
  byteLength,
  fleetDefinitionFrontMatter,
  fleetInstructions,
  isCeilingIssue,
  LIBRARY_CEILINGS,
  Problem,
} from "@fleet/contracts";
import type { LibraryRequirements, LibraryTrigger } from "@fleet/db";
import { parseDocument } from "yaml";
import type { z } from "zod";
import { storedMcpServer } from "./mcp-servers.ts";

/** A fleet definition read from its file, ready to store. */
export interface FleetDefinition {
  name: string;
  description: string;
  instructions: string;
  /** The `model:` it asks for (a catalogue model id), null when it names none. */
  model: string | null;
  triggers: LibraryTrigger[];
  /**
   * Stored beside the names (old rows lack them): `tool_approvals`, the tools marked `approval: required`;
   * `tool_blast_radius`, each tool's stated blast radius; `agent_max_steps`, the `agent.max_steps`.
   */
  requirements: LibraryRequirements & {
    tool_approvals: string[];
    tool_blast_radius?: Record<string, string>;
    agent_max_steps?: number;
  };
  credentialReasons: Record<string, string>;
}

interface Issue {
  code: string;
  path: PropertyKey[];
  message: string;
  input?: unknown;
  keys?: string[];
  params?: unknown;
}

/** `requires.credentials[2].name`, the way the file's author sees the field. */
function fieldOf(path: PropertyKey[]): string {
  let field = "";
  for (const part of path)
    field += typeof part === "number" ? `[${part}]` : `${field ? "." : ""}${String(part)}`;
  return field;
}

function valueAt(value: unknown, path: PropertyKey[]): unknown {
  let current = value;
  for (const part of path) {
    if (current === null || typeof current !== "object") return undefined;
    current = (current as Record<PropertyKey, unknown>)[part];
  }
  return current;
}

/** One sentence naming the field at fault, as the file's author sees it. */
function describe(issue: Issue, raw: unknown): string {
  const field = fieldOf(issue.path);
  if (issue.code === "unrecognized_keys" && issue.keys) {
    const keys = `unknown key${issue.keys.length > 1 ? "s" : ""} ${issue.keys.join(", ")}`;
    return `${field ? `${field} has` : "The front matter has"} ${keys}.`;
  }
  if (field === "") return `The front matter ${issue.message}.`;
  if (issue.code === "invalid_type" && valueAt(raw, issue.path) === undefined) return `${field} is required.`;
  return `${field} ${issue.message}.`;
}

function invalid(detail: string): Problem {
  return new Problem("UZ-LIBRARY-010", { detail });
}

/** Splits `---\n<yaml>\n---\n<markdown>` into its two parts. */
function split(source: string): { frontMatter: string; body: string } {
  const text = source.replace(/^\uFEFF/, "").replace(/\r\n?/g, "\n");
  const lines = text.split("\n");
  if (lines[0]?.trimEnd() !== "---") {
    throw invalid("The definition must open with YAML front matter: a line ---, the YAML, then another ---.");
  }
  const close = lines.findIndex((line, index) => index > 0 && /^(---|\.\.\.)\s*$/.test(line));
  if (close < 0) throw invalid("The front matter is not closed: end it with a line ---.");
  return { frontMatter: lines.slice(1, close).join("\n"), body: lines.slice(close + 1).join("\n") };
}

function yamlValue(frontMatter: string): unknown {
  // The core schema reads only null, booleans, numbers and strings: no custom tags, no timestamps.
  const document = parseDocument(frontMatter, { schema: "core", uniqueKeys: true });
  const [problem] = [...document.errors, ...document.warnings];
  if (problem !== undefined) {
    // Lines are counted in the file, where the front matter starts on line 2.
    const line = problem.linePos?.[0]?.line;
    const where = line === undefined ? "" : ` at line ${line + 1}`;
    const message = problem.message.split("\n")[0]!.replace(/ at line \d+, column \d+:?$/, "");
    throw invalid(`The front matter is not valid YAML${where}: ${message}.`);
  }
  try {
    return document.toJS({ maxAliasCount: 100 });
  } catch (error) {
    throw invalid(`The front matter is not valid YAML: ${(error as Error).message.split("\n")[0]}`);
  }
}

/**
 * Reads a document's front matter against `schema`: past the byte ceiling answers 413 UZ-LIBRARY-011,
 * checked before any other fault, as is a schema ceiling; a malformed one 400 UZ-LIBRARY-010 naming the
 * field.
 */
function readFrontMatter<T>(source: string, schema: z.ZodType<T>): { data: T; body: string } {
  const bytes = byteLength(source);
  if (bytes > LIBRARY_CEILINGS.definitionBytes) {
    throw new Problem("UZ-LIBRARY-011", {
      detail: `The definition is ${bytes} bytes; the ceiling is ${LIBRARY_CEILINGS.definitionBytes}.`,
    });
  }
  const { frontMatter, body } = split(source);
  const raw = yamlValue(frontMatter);
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    const issues = parsed.error.issues as Issue[];
    const ceiling = issues.find(isCeilingIssue);
    if (ceiling !== undefined) throw new Problem("UZ-LIBRARY-011", { detail: describe(ceiling, raw) });
    throw invalid(describe(issues[0]!, raw));
  }
  return { data: parsed.data, body };
}

/** A trigger document's front matter: the triggers alone, unknown keys refused. */
const triggerFrontMatter = fleetDefinitionFrontMatter.pick({ triggers: true });

/**
 * Reads a fleet's trigger document: front matter holding `triggers` in the definition's format (the same
 * rules and ceilings); the Markdown below it is the author's notes and is not stored.
 */
export function parseTriggerDocument(source: string): LibraryTrigger[] {
  return readFrontMatter(source, triggerFrontMatter).data.triggers;
}

/**
 * Reads a fleet definition (docs/fleet-library-format.md): YAML front matter validated by the contracts'
 * schema, and the Markdown body as instructions. Past a ceiling answers 413 UZ-LIBRARY-011, checked before
 * any other fault; a malformed definition 400 UZ-LIBRARY-010 naming the field.
 */
export function parseDefinition(source: string): FleetDefinition {
  const { data, body } = readFrontMatter(source, fleetDefinitionFrontMatter);
  const instructions = fleetInstructions.safeParse(body);
  if (!instructions.success) {
    throw invalid(
      `instructions (the Markdown below the front matter) ${instructions.error.issues[0]!.message}.`,
    );
  }
  const { name, description, model, triggers, requires, agent } = data;
  const blastRadius = requires.tools.flatMap((tool) =>
    tool.blast_radius === undefined ? [] : [[tool.name, tool.blast_radius] as const],
  );
  return {
    name,
    description,
    instructions: instructions.data,
    model: model ?? null,
    triggers,
    requirements: {
      credentials: requires.credentials.map((credential) => credential.name),
      tools: requires.tools.map((tool) => tool.name),
      tool_approvals: requires.tools.filter((tool) => tool.approval === "required").map((tool) => tool.name),
      ...(blastRadius.length === 0 ? {} : { tool_blast_radius: Object.fromEntries(blastRadius) }),
      ...(agent?.max_steps === undefined ? {} : { agent_max_steps: agent.max_steps }),
      network_hosts: requires.network_hosts,
      runner_labels: requires.runner_labels,
      // Only when declared: a definition without servers is stored as before (same etag on re-apply).
      ...(requires.mcp_servers.length === 0
        ? {}
        : { mcp_servers: requires.mcp_servers.map(storedMcpServer) }),
    },
    credentialReasons: Object.fromEntries(requires.credentials.map(({ name, reason }) => [name, reason])),
  };
}
