import type { TenantScope } from "@fleet/contracts/scopes";

/** The picker's groups, in the order people look for them, each with the scopes' resource. */
export const scopeGroups: readonly { resource: string; label: string }[] = [
  { resource: "fleet", label: "Fleets" },
  { resource: "approval", label: "Approvals" },
  { resource: "secret", label: "Secrets" },
  { resource: "connector", label: "Connectors" },
  { resource: "grant", label: "Integration grants" },
  { resource: "library", label: "Library" },
  { resource: "fleetkey", label: "Fleet keys" },
  { resource: "apikey", label: "API keys" },
  { resource: "billing", label: "Billing" },
  { resource: "webhook", label: "Webhooks" },
  { resource: "workspace", label: "Administration" },
];

/** What each scope lets its holder do, in a few words beside its checkbox. */
export const scopeWords: Record<TenantScope, string> = {
  "fleet:read": "See fleets, events, runs and schedules",
  "fleet:write": "Install, message, pause and schedule fleets",
  "fleet:admin": "Delete fleets",
  "approval:read": "See the approvals inbox and evidence",
  "approval:resolve": "Approve, deny and extend gates",
  "secret:read": "See the names of secrets",
  "secret:write": "Create, replace and delete secrets",
  "connector:read": "See connectors and channel routes",
  "connector:write": "Connect, route and disconnect",
  "grant:read": "See integration grants",
  "grant:write": "Revoke integration grants",
  "library:write": "Add definitions to the library",
  "fleetkey:read": "See fleet keys",
  "fleetkey:write": "Mint and delete fleet keys",
  "apikey:read": "See the tenant's API keys",
  "apikey:write": "Create and rotate API keys",
  "apikey:admin": "Revoke and delete any API key",
  "billing:read": "See spend, charges and budgets",
  "webhook:read": "See webhook endpoints and deliveries",
  "webhook:write": "Subscribe, change and delete webhook endpoints",
  "workspace:admin": "Workspaces, members, policies, providers, audit log",
};
