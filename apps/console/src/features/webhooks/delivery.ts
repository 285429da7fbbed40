import { WEBHOOK_PING_TYPE } from "@fleet/contracts/webhook-endpoints/test-webhook-endpoint";
import { webhookDeliveryStatuses } from "@fleet/contracts/webhook-endpoints/webhook-delivery";
import {
  type WebhookEventType,
  webhookEventTypes,
} from "@fleet/contracts/webhook-endpoints/webhook-endpoint";
import type { StatusVariant } from "@fleet/ui";
import type { RouterOutputs } from "../../lib/trpc.ts";
import { formatDuration } from "../fleet-events/format.ts";

export type Delivery = RouterOutputs["webhookEndpoints"]["listDeliveries"]["items"][number];
export type DeliveryAttempt = Delivery["attempts"][number];
export type DeliveryStatus = Delivery["status"];

export const deliveryStatusVariants: Record<DeliveryStatus, StatusVariant> = {
  pending: { label: "Pending", tone: "info" },
  succeeded: { label: "Succeeded", tone: "success" },
  failed: { label: "Failed", tone: "danger" },
};

export type DeliveryType = WebhookEventType | typeof WEBHOOK_PING_TYPE;

/** The types a delivery can have: the catalogue's, and the test ping. */
export const deliveryTypes: readonly DeliveryType[] = [...webhookEventTypes, WEBHOOK_PING_TYPE];

/** The log's status filter from the URL: a known status, or none. */
export function deliveryStatusOf(value: string | undefined): DeliveryStatus | undefined {
  return webhookDeliveryStatuses.find((status) => status === value);
}

/** The log's type filter from the URL: a known type, or none. */
export function deliveryTypeOf(value: string | undefined): DeliveryType | undefined {
  return deliveryTypes.find((type) => type === value);
}

/** What an attempt got: the receiver's status ("503"), or why nothing came ("timeout", "ECONNREFUSED"). */
export function attemptOutcome(attempt: Pick<DeliveryAttempt, "status_code" | "error">): string {
  if (attempt.status_code !== null) return `answered ${attempt.status_code}`;
  return attempt.error ?? "no answer";
}

/** An attempt in a few words: "answered 503 in 120 ms", "ECONNREFUSED after 3 ms". */
export function attemptWords(attempt: Pick<DeliveryAttempt, "status_code" | "error" | "latency_ms">): string {
  const latency = formatDuration(attempt.latency_ms);
  return attempt.status_code !== null
    ? `${attemptOutcome(attempt)} in ${latency}`
    : `${attemptOutcome(attempt)} after ${latency}`;
}

/** Whether an attempt was answered 2xx. */
export function attemptSucceeded(attempt: Pick<DeliveryAttempt, "status_code">): boolean {
  return attempt.status_code !== null && attempt.status_code >= 200 && attempt.status_code < 300;
}
