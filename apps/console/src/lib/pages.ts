/** A console page the palette and the `g` keys go to. */
export interface ConsolePage {
  href: string;
  label: string;
  /** The letter after `g` that opens it (`g f`: Fleets). */
  goKey: string;
  /** Other words people look for it by. */
  keywords?: string;
}

/**
 * Every page reachable from the navigation, in its order. The letters are the page's initial where that is
 * free; the audit log is `u`, Models `p` (prices, the provider).
 */
export const consolePages: readonly ConsolePage[] = [
  { href: "/overview", label: "Overview", goKey: "o", keywords: "home dashboard what needs me" },
  { href: "/approvals", label: "Approvals", goKey: "a", keywords: "gates inbox pending" },
  { href: "/runners", label: "Runners", goKey: "r", keywords: "leases hosts" },
  { href: "/fleets", label: "Fleets", goKey: "f", keywords: "agents" },
  { href: "/library", label: "Library", goKey: "l", keywords: "definitions install" },
  { href: "/models", label: "Models", goKey: "p", keywords: "catalogue prices provider llm" },
  { href: "/events", label: "Events", goKey: "e", keywords: "activity feed live" },
  { href: "/connectors", label: "Connectors", goKey: "c", keywords: "slack chat channels" },
  { href: "/secrets", label: "Secrets", goKey: "s", keywords: "credentials" },
  { href: "/api-keys", label: "API keys", goKey: "k", keywords: "tokens" },
  { href: "/members", label: "Members", goKey: "m", keywords: "people users invite" },
  { href: "/billing", label: "Billing", goKey: "b", keywords: "spend budgets cost" },
  { href: "/audit", label: "Audit log", goKey: "u", keywords: "history" },
];
