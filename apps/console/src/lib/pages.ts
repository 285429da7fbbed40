import type { TenantScope } from "@fleet/contracts/scopes";

/** A console page the palette and the `g` keys go to. */
export interface ConsolePage {
  href: string;
  label: string;
  /** The letter after `g` that opens it (`g f`: Fleets). */
  goKey: string;
  /** Other words people look for it by. */
  keywords?: string;
  /** The scope its content needs; none: every signed-in person opens it. */
  scope?: TenantScope;
  /**
   * Without the scope, the navigation leaves out the tenant's administration (nobody asks for it by
   * seeing it) and shows every other page disabled, naming the scope to ask for (docs/decisions/console.md,
   * "Navigation by scope").
   */
  lacking?: "hide" | "disable";
}

/**
 * Every page reachable from the navigation, in its order. The letters are the page's initial where that is
 * free; the audit log is `u`, Models `p` (prices, the provider).
 */
export const consolePages: readonly ConsolePage[] = [
  {
    href: "/overview",
    label: "Overview",
    goKey: "o",
    keywords: "home dashboard what needs me",
    scope: "fleet:read",
    lacking: "disable",
  },
  {
    href: "/approvals",
    label: "Approvals",
    goKey: "a",
    keywords: "gates inbox pending",
    scope: "approval:read",
    lacking: "disable",
  },
  { href: "/runners", label: "Runners", goKey: "r", keywords: "leases hosts" },
  {
    href: "/fleets",
    label: "Fleets",
    goKey: "f",
    keywords: "agents",
    scope: "fleet:read",
    lacking: "disable",
  },
  {
    href: "/library",
    label: "Library",
    goKey: "l",
    keywords: "definitions install",
    scope: "fleet:read",
    lacking: "disable",
  },
  { href: "/models", label: "Models", goKey: "p", keywords: "catalogue prices provider llm" },
  {
    href: "/events",
    label: "Events",
    goKey: "e",
    keywords: "activity feed live",
    scope: "fleet:read",
    lacking: "disable",
  },
  {
    href: "/connectors",
    label: "Connectors",
    goKey: "c",
    keywords: "slack chat channels",
    scope: "connector:read",
    lacking: "disable",
  },
  {
    href: "/secrets",
    label: "Secrets",
    goKey: "s",
    keywords: "credentials",
    scope: "secret:read",
    lacking: "disable",
  },
  {
    href: "/api-keys",
    label: "API keys",
    goKey: "k",
    keywords: "tokens",
    scope: "apikey:read",
    lacking: "disable",
  },
  {
    href: "/webhooks",
    label: "Webhooks",
    goKey: "w",
    keywords: "outgoing events subscriptions deliveries endpoints",
    scope: "webhook:read",
    lacking: "disable",
  },
  {
    href: "/members",
    label: "Members",
    goKey: "m",
    keywords: "people users invite",
    scope: "workspace:admin",
    lacking: "hide",
  },
  {
    href: "/billing",
    label: "Billing",
    goKey: "b",
    keywords: "spend budgets cost",
    scope: "billing:read",
    lacking: "disable",
  },
  {
    href: "/audit",
    label: "Audit log",
    goKey: "u",
    keywords: "history",
    scope: "workspace:admin",
    lacking: "hide",
  },
];
