import { sql } from "drizzle-orm";
import { bigint, check, index, jsonb, pgTable, text, uuid } from "drizzle-orm/pg-core";
import { tenants } from "./tenants.ts";
import { workspaces } from "./workspaces.ts";

/** A fleet trigger as its definition declares it. */
export interface LibraryTrigger {
  cron: string;
  timezone: string;
  message: string;
}

/** What a fleet needs before it can run. */
export interface LibraryRequirements {
  credentials: string[];
  tools: string[];
  network_hosts: string[];
  /** Runner labels the fleet's work must be leased by (every one among the runner's). */
  runner_labels: string[];
  /** Declared MCP servers (issue 32), normalised as the lease carries them; rows from before lack it. */
  mcp_servers?: StoredMcpServer[];
}

/** An MCP server as stored and leased: `approval` null when only some (or none) of its tools are gated. */
export interface StoredMcpServer {
  name: string;
  url: string;
  approval: "required" | null;
  tool_approvals: string[];
  headers?: Record<string, string>;
}

/**
 * Fleet definitions people install fleets from. Platform entries (no tenant or workspace) are visible
 * to every workspace; tenant entries belong to the workspace that onboarded them.
 */
export const fleetLibraries = pgTable(
  "fleet_libraries",
  {
    id: uuid("id").primaryKey(),
    visibility: text("visibility").notNull(),
    tenantId: uuid("tenant_id").references(() => tenants.id, { onDelete: "cascade" }),
    workspaceId: uuid("workspace_id").references(() => workspaces.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    description: text("description").notNull(),
    instructions: text("instructions").notNull(),
    /** The definition's `model:` (a catalogue model id), null when it names none. */
    model: text("model"),
    triggers: jsonb("triggers").$type<LibraryTrigger[]>().notNull(),
    requirements: jsonb("requirements").$type<LibraryRequirements>().notNull(),
    /** Why each required credential is needed: the copy shown when a person installs the fleet. */
    credentialReasons: jsonb("credential_reasons").$type<Record<string, string>>().notNull(),
    /** Where the definition came from: `upload:sha256:<hex>` or `git:<url>#<commit>`. */
    sourceRef: text("source_ref").notNull(),
    createdAt: bigint("created_at", { mode: "number" }).notNull(),
  },
  (t) => [
    check("fleet_libraries_visibility", sql`${t.visibility} in ('platform', 'tenant')`),
    check(
      "fleet_libraries_owner",
      sql`(${t.visibility} = 'platform') = (${t.workspaceId} is null and ${t.tenantId} is null)`,
    ),
    index("fleet_libraries_platform_page_idx").on(t.createdAt, t.id).where(sql`${t.visibility} = 'platform'`),
    index("fleet_libraries_workspace_page_idx").on(t.workspaceId, t.createdAt, t.id),
  ],
);
