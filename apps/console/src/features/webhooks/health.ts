import { WEBHOOK_FAILING_DAYS } from "@fleet/contracts/webhook-endpoints/webhook-delivery";
import type { BadgeTone } from "@fleet/ui";
import { countOf } from "../../lib/format.ts";
import type { Endpoint } from "./endpoint.ts";

type Health = Endpoint["health"];

/**
 * The share of 2xx as a whole percent that never rounds to a verdict the attempts do not support: 100 %
 * only when every attempt succeeded, 0 % only when none did (119 of 120 is 99 %, not 100 %).
 */
export function percentOf(rate: number): number {
  if (rate >= 1) return 100;
  if (rate <= 0) return 0;
  return Math.min(99, Math.max(1, Math.round(rate * 100)));
}

/** The last 24 hours in words: "98 % of 120 attempts", "no attempts in 24 h". */
export function healthWords(health: Pick<Health, "attempts_24h" | "success_rate_24h">): string {
  if (health.attempts_24h === 0 || health.success_rate_24h === null) return "no attempts in 24 h";
  return `${percentOf(health.success_rate_24h)} % of ${countOf(health.attempts_24h, "attempt")}`;
}

/** How the last 24 hours look at a glance: all good, some failing, mostly failing, or nothing to judge. */
export function healthTone(health: Pick<Health, "attempts_24h" | "success_rate_24h">): BadgeTone {
  const rate = health.success_rate_24h;
  if (health.attempts_24h === 0 || rate === null) return "neutral";
  if (rate >= 0.95) return "success";
  return rate >= 0.5 ? "warning" : "danger";
}

/** Why an endpoint is off, in words: the service's reason, or the person's choice. */
export function disabledWords(endpoint: Pick<Endpoint, "enabled" | "disabled_reason">): string | null {
  if (endpoint.enabled) return null;
  if (endpoint.disabled_reason === "gone") return "Disabled by the service: the receiver answered 410 Gone";
  if (endpoint.disabled_reason === "failing")
    return `Disabled by the service: failing for ${WEBHOOK_FAILING_DAYS} days`;
  return "Disabled";
}

/** An endpoint the service turned off: why in words, and since when (null for one a person turned off). */
export interface ServiceDisable {
  reason: "gone" | "failing";
  why: string;
  at: number | null;
}

export function serviceDisable(
  endpoint: Pick<Endpoint, "enabled" | "disabled_reason" | "disabled_at">,
): ServiceDisable | null {
  if (endpoint.enabled || endpoint.disabled_reason === null) return null;
  const why =
    endpoint.disabled_reason === "gone"
      ? "its receiver answered 410 Gone: the endpoint said it is gone"
      : `its receiver has been failing for ${WEBHOOK_FAILING_DAYS} days: no delivery got a 2xx answer`;
  return { reason: endpoint.disabled_reason, why, at: endpoint.disabled_at };
}

/** The endpoints the service turned off, the latest first: what the Webhooks page and its nav badge show. */
export function serviceDisabled<T extends Pick<Endpoint, "enabled" | "disabled_reason" | "disabled_at">>(
  endpoints: readonly T[],
): T[] {
  return endpoints
    .filter((endpoint) => serviceDisable(endpoint) !== null)
    .sort((a, b) => (b.disabled_at ?? 0) - (a.disabled_at ?? 0));
}
