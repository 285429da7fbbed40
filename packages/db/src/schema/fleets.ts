import { sql } from "drizzle-orm";
import { bigint, index, integer, jsonb, pgTable, text, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { fleetStatus } from "./domains.ts";
import type { LibraryRequirements, LibraryTrigger } from "./fleet-libraries.ts";
import { tenants } from "./tenants.ts";
import { workspaces } from "./workspaces.ts";

/**
 * The definition a fleet was installed from, frozen at install so later library edits do not move it; a
 * PATCH of the fleet may replace it.
 */
export interface FleetDefinition {
  instructions: string;
  triggers: LibraryTrigger[];
  requirements: LibraryRequirements;
  /** The definition's `model:`; absent in definitions stored before it existed (read as none). */
  model?: string | null;
}

export const fleets = pgTable(
  "fleets",
  {
    id: uuid("id").primaryKey(),
    tenantId: uuid("tenant_id")
      .notNull()
      .references(() => tenants.id, { onDelete: "cascade" }),
    workspaceId: uuid("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    status: fleetStatus("status").notNull(),
    /** The library entry it was installed from; entries are never deleted, so no cascade is needed. */
    libraryId: uuid("library_id").notNull(),
    libraryVisibility: text("library_visibility").notNull(),
    definition: jsonb("definition").$type<FleetDefinition>().notNull(),
    /** Bumped on every change a person makes; the `etag` is derived from it. */
    version: integer("version").notNull().default(1),
    /** The last fencing token handed out for this fleet's work; each lease claim bumps it. */
    fenceSeq: bigint("fence_seq", { mode: "number" }).notNull().default(0),
    /**
     * Until when the fleet's current lease holds it (null when none): kept on the fleet row so a
     * concurrent acquire that locks the row re-reads it and passes over a fleet just leased.
     */
    leasedUntil: bigint("leased_until", { mode: "number" }),
    eventsProcessed: bigint("events_processed", { mode: "number" }).notNull().default(0),
    /** Every charge of the fleet's life, summed (the lists' `budget_used_nanos`). */
    budgetUsedNanos: bigint("budget_used_nanos", { mode: "number" }).notNull().default(0),
    /**
     * Every charge written since billing began (the charges table's sum for the fleet), bumped by the
     * report statement on this row it already locks: the tenant's balance is its credits minus these
     * (and minus its deleted fleets' `billing_accounts.retired_spend_nanos`), so no report writes a row
     * shared by the tenant's other fleets.
     */
    chargedNanos: bigint("charged_nanos", { mode: "number" }).notNull().default(0),
    /** The fleet's budget per period (calendar month, UTC); null: none. No new work once spent. */
    periodBudgetNanos: bigint("period_budget_nanos", { mode: "number" }),
    /** The cap on one run (one event's lease); null: none. A run that reaches it is told to stop. */
    runBudgetNanos: bigint("run_budget_nanos", { mode: "number" }),
    /** Percents of the period budget at which an alert goes out, once each per period. */
    budgetAlertPercents: integer("budget_alert_percents")
      .array()
      .notNull()
      .default(sql`'{50,80,100}'::integer[]`),
    /** The period `period_spend_nanos` counts (`YYYY-MM`); an older one means nothing spent this period. */
    spendPeriod: text("spend_period"),
    periodSpendNanos: bigint("period_spend_nanos", { mode: "number" }).notNull().default(0),
    createdAt: bigint("created_at", { mode: "number" }).notNull(),
    updatedAt: bigint("updated_at", { mode: "number" }).notNull(),
  },
  (t) => [
    uniqueIndex("fleets_workspace_name_key").on(t.workspaceId, t.name),
    index("fleets_workspace_page_idx").on(t.workspaceId, t.createdAt, t.id),
  ],
);
