import { z } from "zod";
import { epochMs, uuidv7 } from "../common.ts";
import { MODEL_NAME_PATTERN } from "../models/model.ts";
import { cronProblem, isTimeZone } from "./cron.ts";
import { mcpServers, mcpServersReachable } from "./mcp-servers.ts";

/**
 * Ceilings of a fleet definition. Past one, an import answers 413 UZ-LIBRARY-011; the copy a person reads
 * at install (a credential's reason) past its own limit is malformed instead, 400 UZ-LIBRARY-010.
 */
export const LIBRARY_CEILINGS = {
  /** The definition file (front matter and instructions), in UTF-8 bytes. */
  definitionBytes: 256 * 1024,
  credentials: 32,
  tools: 64,
  networkHosts: 64,
  runnerLabels: 32,
  triggers: 16,
  /** The fleet's name and every credential, tool and runner-label name. */
  nameBytes: 200,
  hostBytes: 253,
  descriptionBytes: 2000,
  triggerMessageBytes: 4096,
  /** Install-gate copy: reasons given for required credentials. */
  reasonEntries: 32,
  reasonBytes: 500,
} as const;

/** Where an entry is visible: to every workspace, or to the workspace that onboarded it. */
export const libraryVisibilities = ["platform", "tenant"] as const;

const utf8 = new TextEncoder();

export function byteLength(text: string): number {
  return utf8.encode(text).length;
}

/** The params a ceiling issue carries, telling an over-limit import (413) from a malformed one (400). */
const CEILING = { ceiling: true } as const;

/** Whether a validation issue is a ceiling (413) rather than a malformed field (400). */
export function isCeilingIssue(issue: { params?: unknown }): boolean {
  return (issue.params as { ceiling?: unknown } | undefined)?.ceiling === true;
}

function underBytes(max: number) {
  return [
    (value: string) => byteLength(value) <= max,
    { error: `must be at most ${max} bytes`, params: CEILING },
  ] as const;
}

function atMost(max: number, what: string) {
  return [
    (value: unknown[]) => value.length <= max,
    { error: `must hold at most ${max} ${what}`, params: CEILING },
  ] as const;
}

function distinct<T>(key: (item: T) => string, what: string) {
  return [
    (items: T[]) => new Set(items.map(key)).size === items.length,
    { error: `must not name the same ${what} twice` },
  ] as const;
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
const lineControls = /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/;
// Text that may span lines keeps tab and newline, and nothing else below U+0020 (the store refuses NUL).
// biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
const textControls = /[\u0000-\u0008\u000b-\u001f\u007f\u202a-\u202e\u2066-\u2069]/;

function text(error = "must be a string") {
  return z.string({ error }).refine((value) => !textControls.test(value), {
    error: "must not contain control or bidirectional-override characters",
  });
}

/** The fleet's name: trimmed, 1 to 200 bytes, one line. */
export const libraryName = z
  .string({ error: "must be a string" })
  .trim()
  .min(1, { error: "must not be empty" })
  .refine((value) => !lineControls.test(value), {
    error: "must not contain control or bidirectional characters",
  })
  .refine(...underBytes(LIBRARY_CEILINGS.nameBytes));

/** A required credential's name: the name of the workspace secret that satisfies it. */
export const credentialName = z
  .string({ error: "must be a string" })
  .regex(/^[A-Za-z_][A-Za-z0-9_.-]*$/, {
    error: "must be letters, digits, _, . or -, starting with a letter or _ (a workspace secret's name)",
  })
  .refine((value) => value !== "__proto__", { error: "must not be __proto__" })
  .refine(...underBytes(LIBRARY_CEILINGS.nameBytes));

/** Why the fleet needs a credential: shown to the person installing it. */
export const credentialReason = text()
  .trim()
  .min(1, { error: "must say why the fleet needs the credential" })
  .refine((value) => byteLength(value) <= LIBRARY_CEILINGS.reasonBytes, {
    error: `must be at most ${LIBRARY_CEILINGS.reasonBytes} bytes`,
  });

export const toolName = z
  .string({ error: "must be a string" })
  // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
  .regex(/^[^\s\u0000-\u001f\u007f]+$/, {
    error: "must be a non-empty name without spaces or control characters",
  })
  .refine(...underBytes(LIBRARY_CEILINGS.nameBytes));

/** The longest `blast_radius` a tool entry may state. */
export const TOOL_BLAST_RADIUS_MAX_CHARS = 500;
/** `agent.max_steps`: the bounds a definition may set, and the value when it sets none. */
export const AGENT_MAX_STEPS = { min: 1, max: 64, default: 16 } as const;

/**
 * The `agent` block of a definition: how the agent executor runs the fleet. `max_steps` caps its model
 * calls a run (the runner's own cap, FLEET_RUNNER_AGENT_MAX_STEPS, bounds it further).
 */
export const libraryAgent = z.strictObject(
  {
    max_steps: z
      .number({ error: "must be an integer" })
      .int({ error: "must be an integer" })
      .min(AGENT_MAX_STEPS.min, { error: `must be from ${AGENT_MAX_STEPS.min} to ${AGENT_MAX_STEPS.max}` })
      .max(AGENT_MAX_STEPS.max, { error: `must be from ${AGENT_MAX_STEPS.min} to ${AGENT_MAX_STEPS.max}` })
      .optional(),
  },
  { error: "must be a mapping of max_steps" },
);

/** What a tool entry may ask for: `required` opens an approval gate before each call of the tool. */
export const toolApprovals = ["required"] as const;

const toolObject = z.strictObject(
  {
    name: toolName,
    approval: z.enum(toolApprovals, { error: 'must be "required" (or left out)' }).optional(),
    /** What a call of the tool can touch, in words: the blast radius of each gate the tool opens. */
    blast_radius: text()
      .trim()
      .min(1, { error: "must not be empty" })
      .max(TOOL_BLAST_RADIUS_MAX_CHARS, {
        error: `must be at most ${TOOL_BLAST_RADIUS_MAX_CHARS} characters`,
      })
      .optional(),
  },
  { error: "must be a tool name or {name, approval, blast_radius}" },
);

/**
 * One `requires.tools` entry: a plain name (no approval), or `{name, approval?}`, read as the object either
 * way. A plain name's faults are the entry's own (`requires.tools[2] must …`), as before objects existed;
 * an object's unknown keys are refused, as everywhere in the front matter.
 */
export const toolEntry = z.unknown().transform((value, ctx): z.output<typeof toolObject> => {
  const parsed = typeof value === "string" ? toolName.safeParse(value) : toolObject.safeParse(value);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) ctx.addIssue({ ...issue, input: value } as never);
    return z.NEVER;
  }
  return typeof parsed.data === "string" ? { name: parsed.data } : parsed.data;
});

/** The first entry naming a tool an earlier entry named: the issue points at that entry. */
function noRepeatedTool(entries: { name: string }[], ctx: z.RefinementCtx): void {
  const seen = new Map<string, number>();
  for (const [index, { name }] of entries.entries()) {
    const first = seen.get(name);
    if (first !== undefined) {
      ctx.addIssue({
        code: "custom",
        path: [index],
        message: `names the tool ${name} again (requires.tools[${first}] already does)`,
      });
      return;
    }
    seen.set(name, index);
  }
}

/** A host the fleet reaches: a DNS name, optionally `*.` for its subdomains; kept lower case. */
export const networkHost = z
  .string({ error: "must be a string" })
  .trim()
  .toLowerCase()
  .regex(/^(\*\.)?[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/, {
    error:
      "must be a host name (labels of letters, digits and -, at most 63 each), optionally prefixed with *. for its subdomains",
  })
  .refine(...underBytes(LIBRARY_CEILINGS.hostBytes));

export const runnerLabel = z
  .string({ error: "must be a string" })
  .regex(/^[A-Za-z0-9][A-Za-z0-9_.:=/-]*$/, {
    error: "must start with a letter or digit and hold only letters, digits, _ . : = / -",
  })
  .refine(...underBytes(LIBRARY_CEILINGS.nameBytes));

/** A cron trigger: fires `message` at the fleet on a five-field expression read in an IANA zone. */
export const libraryTrigger = z.strictObject({
  cron: z.string({ error: "must be a string" }).superRefine((value, ctx) => {
    const problem = cronProblem(value);
    if (problem !== null) ctx.addIssue({ code: "custom", message: problem });
  }),
  timezone: z
    .string({ error: "must be a string" })
    .refine(isTimeZone, { error: "must be an IANA time zone such as Europe/Berlin or UTC" })
    .default("UTC"),
  message: text()
    .trim()
    .min(1, { error: "must not be empty" })
    .refine(...underBytes(LIBRARY_CEILINGS.triggerMessageBytes)),
});

const credentialRequirement = z.strictObject({ name: credentialName, reason: credentialReason });

/**
 * The model the fleet asks for: a catalogue model id (`GET /v1/models`). The gateway uses it when it is a
 * model of the tenant's provider, else the provider's model (docs/decisions/model-gateway.md).
 */
export const libraryModel = z.string({ error: "must be a string" }).regex(MODEL_NAME_PATTERN, {
  error: "must be a model id: 1 to 200 letters, digits or . _ : / @ + -, starting with a letter or digit",
});

/** What the fleet needs before it can run. */
export const libraryRequires = z
  .strictObject({
    credentials: z
      .array(credentialRequirement, { error: "must be a list of {name, reason}" })
      .refine(...atMost(LIBRARY_CEILINGS.credentials, "credentials"))
      .refine(...distinct((item: { name: string }) => item.name, "credential"))
      .default([]),
    tools: z
      .array(toolEntry, { error: "must be a list of tool names or {name, approval, blast_radius}" })
      .refine(...atMost(LIBRARY_CEILINGS.tools, "tools"))
      .superRefine(noRepeatedTool)
      .default([]),
    network_hosts: z
      .array(networkHost, { error: "must be a list of host names" })
      .refine(...atMost(LIBRARY_CEILINGS.networkHosts, "hosts"))
      .refine(...distinct((item: string) => item, "host"))
      .default([]),
    runner_labels: z
      .array(runnerLabel, { error: "must be a list of labels" })
      .refine(...atMost(LIBRARY_CEILINGS.runnerLabels, "labels"))
      .refine(...distinct((item: string) => item, "label"))
      .default([]),
    /** MCP servers whose tools the agent is offered (docs/fleet-library-format.md, "MCP servers"). */
    mcp_servers: mcpServers.default([]),
  })
  .superRefine(mcpServersReachable);

/**
 * The YAML front matter of a fleet definition (docs/fleet-library-format.md). Unknown keys are refused,
 * so a misspelt key is an error rather than a silently dropped requirement.
 */
export const fleetDefinitionFrontMatter = z.strictObject(
  {
    name: libraryName,
    description: text()
      .trim()
      .refine(...underBytes(LIBRARY_CEILINGS.descriptionBytes))
      .default(""),
    model: libraryModel.optional(),
    triggers: z
      .array(libraryTrigger, { error: "must be a list of {cron, timezone, message}" })
      .refine(...atMost(LIBRARY_CEILINGS.triggers, "triggers"))
      .default([]),
    requires: libraryRequires.default({
      credentials: [],
      tools: [],
      network_hosts: [],
      runner_labels: [],
      mcp_servers: [],
    }),
    agent: libraryAgent.optional(),
  },
  { error: "must be a YAML mapping" },
);
export type FleetDefinitionFrontMatter = z.output<typeof fleetDefinitionFrontMatter>;

/** The Markdown body of a definition: the fleet's instructions. */
export const fleetInstructions = text()
  .trim()
  .min(1, { error: "must not be empty: write the fleet's instructions below the front matter" });

/** How a request names the definition to onboard: its text, or a repository holding it. */
export const onboardingBody = {
  definition: z.string({ error: "definition must be a string" }).optional(),
  git_url: z
    .string({ error: "git_url must be a string" })
    .min(1, { error: "git_url must not be empty" })
    .max(2048, { error: "git_url must be at most 2048 characters" })
    .optional(),
  ref: z
    .string({ error: "ref must be a string" })
    .min(1, { error: "ref must not be empty" })
    .max(255, { error: "ref must be at most 255 characters" })
    .optional(),
  path: z
    .string({ error: "path must be a string" })
    .min(1, { error: "path must not be empty" })
    .max(1024, { error: "path must be at most 1024 characters" })
    .optional(),
};

/** The `{library_id}` path parameter. */
export const libraryIdParam = { library_id: uuidv7("library_id") };

/**
 * What a read tells of a definition's tools beyond their names, each absent on rows stored before the
 * definition format had it: the tools marked `approval: required`, each tool's stated blast radius, and the
 * MCP servers with their approvals (never their headers).
 */
export const requirementMarks = {
  tool_approvals: z.array(z.string()).optional(),
  tool_blast_radius: z.record(z.string(), z.string()).optional(),
  mcp_servers: z
    .array(
      z.object({
        name: z.string(),
        url: z.string(),
        /** `required` gates every tool of the server; null when only `tool_approvals` (or none) are. */
        approval: z.string().nullable(),
        tool_approvals: z.array(z.string()).optional(),
      }),
    )
    .optional(),
};

export const libraryRequirements = z
  .object({
    credentials: z.array(z.string()),
    tools: z.array(z.string()),
    network_hosts: z.array(z.string()),
    runner_labels: z.array(z.string()),
    ...requirementMarks,
  })
  .meta({ id: "LibraryRequirements" });

/** A library entry as lists and onboarding show it: metadata only, never the instructions. */
export const libraryItem = z
  .object({
    id: z.string(),
    name: z.string(),
    description: z.string(),
    visibility: z.enum(libraryVisibilities),
    /** `upload:sha256:<hex>` or `git:<url>#<commit>`. */
    source_ref: z.string(),
    requirements: libraryRequirements,
    /** The definition's `model:`, null when it names none. */
    model: z.string().nullable(),
    /** Why each required credential is needed, by credential name. */
    required_credentials_reasons: z.record(z.string(), z.string()),
    created_at: epochMs,
  })
  .meta({ id: "FleetLibraryEntry" });

/** One entry in full, for the console to show before an install. */
export const libraryEntryView = libraryItem
  .extend({
    instructions: z.string(),
    triggers: z.array(z.object({ cron: z.string(), timezone: z.string(), message: z.string() })),
  })
  .meta({ id: "FleetLibraryEntryDetail" });
