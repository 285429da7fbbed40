import { bigint, index, integer, pgTable, primaryKey, text, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { tenants } from "./tenants.ts";

/**
 * A tenant's account (docs/decisions/billing.md, "Billing and budgets"). Its balance in nanos is
 * `credited_nanos − retired_spend_nanos − Σ fleets.charged_nanos` of the tenant, computed at read time:
 * a report adds its charge to its own fleet's row (which it locks anyway), never to this row, so reports
 * of one tenant's fleets do not queue behind one another. Operators' credits add to `credited_nanos`; a
 * deleted fleet's `charged_nanos` moves to `retired_spend_nanos` in the deleting transaction. The balance
 * may go below zero: it is reported, and budgets are what stop work. A tenant without a row has 0 credit.
 */
export const billingAccounts = pgTable("billing_accounts", {
  tenantId: uuid("tenant_id")
    .primaryKey()
    .references(() => tenants.id, { onDelete: "cascade" }),
  /** Every operator credit, summed. */
  creditedNanos: bigint("credited_nanos", { mode: "number" }).notNull().default(0),
  /** The charges of fleets since deleted, summed (their rows no longer hold them). */
  retiredSpendNanos: bigint("retired_spend_nanos", { mode: "number" }).notNull().default(0),
  updatedAt: bigint("updated_at", { mode: "number" }).notNull(),
});

/**
 * An operator's credit to a tenant. `reference` (an invoice or payment id) makes a retried credit land
 * once: a repeat with the same reference and amount answers the first credit.
 */
export const billingCredits = pgTable(
  "billing_credits",
  {
    id: uuid("id").primaryKey(),
    tenantId: uuid("tenant_id")
      .notNull()
      .references(() => tenants.id, { onDelete: "cascade" }),
    amountNanos: bigint("amount_nanos", { mode: "number" }).notNull(),
    reference: text("reference").notNull(),
    note: text("note"),
    /** The operator who credited, as the audit log names them. */
    createdBy: text("created_by").notNull(),
    createdAt: bigint("created_at", { mode: "number" }).notNull(),
  },
  (t) => [uniqueIndex("billing_credits_reference_key").on(t.tenantId, t.reference)],
);

/**
 * One charge per fleet event, written in the statement of the report that completes the event. The price
 * is the catalogue row's at the time of the report, copied here so a later price change does not rewrite
 * history. No check constraints: the table is written on every lease cycle (see `domains.ts`).
 */
export const charges = pgTable(
  "charges",
  {
    id: uuid("id").primaryKey(),
    tenantId: uuid("tenant_id")
      .notNull()
      .references(() => tenants.id, { onDelete: "cascade" }),
    /** No foreign keys to the workspace, fleet, event or lease: a charge outlives a deleted fleet. */
    workspaceId: uuid("workspace_id").notNull(),
    fleetId: uuid("fleet_id").notNull(),
    /** Unique: the database holds the one-charge-per-event rule whatever the code does. */
    eventId: uuid("event_id").notNull(),
    leaseId: uuid("lease_id").notNull(),
    provider: text("provider"),
    model: text("model"),
    tokens: bigint("tokens", { mode: "number" }),
    inputTokens: bigint("input_tokens", { mode: "number" }),
    outputTokens: bigint("output_tokens", { mode: "number" }),
    cachedTokens: bigint("cached_tokens", { mode: "number" }),
    /** The catalogue row's prices when the charge was priced from it; null when the runner's cost was taken. */
    inputNanosPerMtok: bigint("input_nanos_per_mtok", { mode: "number" }),
    cachedInputNanosPerMtok: bigint("cached_input_nanos_per_mtok", { mode: "number" }),
    outputNanosPerMtok: bigint("output_nanos_per_mtok", { mode: "number" }),
    /** `catalogue` (priced from the row above) or `reported` (the runner's cost_nanos). */
    priceSource: text("price_source").notNull(),
    costNanos: bigint("cost_nanos", { mode: "number" }).notNull(),
    createdAt: bigint("created_at", { mode: "number" }).notNull(),
  },
  (t) => [
    uniqueIndex("charges_event_key").on(t.eventId),
    index("charges_tenant_page_idx").on(t.tenantId, t.createdAt, t.id),
  ],
);

/**
 * A budget alert sent: one row per fleet, period and percent. The primary key is what makes each alert
 * go out once however many reports and usage calls cross the line at the same time.
 */
export const budgetAlerts = pgTable(
  "budget_alerts",
  {
    fleetId: uuid("fleet_id").notNull(),
    /** The calendar month in UTC, `YYYY-MM`. */
    period: text("period").notNull(),
    percent: integer("percent").notNull(),
    tenantId: uuid("tenant_id")
      .notNull()
      .references(() => tenants.id, { onDelete: "cascade" }),
    budgetNanos: bigint("budget_nanos", { mode: "number" }).notNull(),
    spendNanos: bigint("spend_nanos", { mode: "number" }).notNull(),
    createdAt: bigint("created_at", { mode: "number" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.fleetId, t.period, t.percent] })],
);
