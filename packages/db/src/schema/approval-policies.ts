import { bigint, boolean, jsonb, pgTable, text, uuid } from "drizzle-orm/pg-core";
import { tenants } from "./tenants.ts";
import { workspaces } from "./workspaces.ts";

/**
 * A workspace's approval policy, replaced whole by `PUT …/approval-policy`. No row reads as the default:
 * no rules, so anyone holding `approval:resolve` answers, one approval decides, the runner's timeout.
 * Gates copy the matching rule when they open, so changing this never alters a pending gate.
 */
export const approvalPolicies = pgTable("approval_policies", {
  workspaceId: uuid("workspace_id")
    .primaryKey()
    .references(() => workspaces.id, { onDelete: "cascade" }),
  tenantId: uuid("tenant_id")
    .notNull()
    .references(() => tenants.id, { onDelete: "cascade" }),
  /** The rules in match order, as the contract's `approvalRule` parses them. */
  rules: jsonb("rules").$type<Record<string, unknown>[]>().notNull(),
  /** Where escalations are POSTed (signed); null sends none. */
  escalationWebhookUrl: text("escalation_webhook_url"),
  /** Whether the person who caused a gate may approve it; false (the default) forbids it. */
  allowSelfApproval: boolean("allow_self_approval").notNull().default(false),
  updatedAt: bigint("updated_at", { mode: "number" }).notNull(),
  /** The principal that last replaced it: `user:<id>` or `api_key:<id>`. */
  updatedBy: text("updated_by").notNull(),
});
