import { z } from "zod";
import { epochMs, uuidv7 } from "../common.ts";
import { webhookEndpointParams } from "./webhook-endpoint.ts";

/** The attempts a delivery shows, newest first; older ones stay recorded but are not listed. */
export const WEBHOOK_DELIVERY_ATTEMPTS_SHOWN = 20;

/** How far back a replay reaches: events older than this are not sent again (400 UZ-WEBHOOK-011). */
export const WEBHOOK_REPLAY_WINDOW_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * How long the outbox keeps an event (and its deliveries and attempts): the replay window and a day's
 * margin, so a replay at the window's edge never meets an event being pruned.
 */
export const WEBHOOK_EVENT_KEEP_MS = WEBHOOK_REPLAY_WINDOW_MS + 24 * 60 * 60 * 1000;

/** Events one replay queues at most, oldest first; the answer says where to go on from. */
export const WEBHOOK_REPLAY_MAX = 1000;

/** An endpoint with no 2xx for this many days, tried at least once each of them, is disabled (`failing`). */
export const WEBHOOK_FAILING_DAYS = 5;

export const webhookDeliveryStatuses = ["pending", "succeeded", "failed"] as const;

/** One delivery of the endpoint: named by its event's id (a delivery is one event to one endpoint). */
export const webhookDeliveryParams = { ...webhookEndpointParams, event_id: uuidv7("event_id") };

/** One try of a delivery: when, what the receiver answered (or why nothing came), how long it took. */
export const webhookDeliveryAttempt = z
  .object({
    /** 1 for the first try; a retry or replay goes on counting. */
    attempt: z.number().int(),
    at: epochMs,
    /** The receiver's HTTP status; null when none came. */
    status_code: z.number().int().nullable(),
    latency_ms: z.number().int(),
    /** Why no status came: `timeout`, a connection error's code, `address_not_public`, …; null otherwise. */
    error: z.string().nullable(),
    /** The first bytes of the answer's body (at most 1 KiB, as UTF-8 text). */
    response_head: z.string().nullable(),
  })
  .meta({ id: "WebhookDeliveryAttempt" });

/** A delivery as the delivery log shows it: the request as sent, and its latest attempts. */
export const webhookDeliveryItem = z
  .object({
    /** The event's id: the `webhook-id` header and the payload's id, the same on every attempt. */
    id: z.string(),
    endpoint_id: z.string(),
    type: z.string(),
    /** What it is about (`approval_gate:<id>`, `fleet_event:<id>`, `webhook_endpoint:<id>` for a ping). */
    resource: z.string(),
    status: z.enum(webhookDeliveryStatuses),
    /** Attempts made so far (all of them, where `attempts` lists the latest). */
    attempt_count: z.number().int(),
    /** When it is due next; null unless pending. */
    next_attempt_at: epochMs.nullable(),
    created_at: epochMs,
    updated_at: epochMs,
    /** The body every attempt sends (before signing): the Standard Webhooks payload. */
    request: z.object({
      id: z.string(),
      type: z.string(),
      /** When the act happened, RFC 3339. */
      timestamp: z.string(),
      data: z.record(z.string(), z.unknown()),
    }),
    /** The latest attempts, newest first, at most `WEBHOOK_DELIVERY_ATTEMPTS_SHOWN`. */
    attempts: z.array(webhookDeliveryAttempt),
  })
  .meta({ id: "WebhookDelivery" });
export type WebhookDeliveryItem = z.infer<typeof webhookDeliveryItem>;
