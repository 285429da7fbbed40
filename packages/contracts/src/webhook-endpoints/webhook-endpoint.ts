import { z } from "zod";
import { apiKeyItem } from "../api-keys/api-key.ts";
import { approvalGate } from "../approvals/approval-gate.ts";
import { fleetBudget, nanos } from "../billing/billing.ts";
import { epochMs, uuidv7 } from "../common.ts";
import { fleetEventView } from "../fleet-events/fleet-event.ts";
import { integrationGrant } from "../integration-grants/integration-grant.ts";
import { memberItem } from "../members/member.ts";
import { runnerOffline } from "../runners/runner.ts";
import { scheduleView } from "../schedules/schedule.ts";
import { workspaceParam } from "../workspaces/workspace-param.ts";

/** An endpoint's signing secret starts so, as Standard Webhooks secrets do: `whsec_` and base64 of 32 bytes. */
export const WEBHOOK_ENDPOINT_SECRET_PREFIX = "whsec_";

/** How long a rotated-out secret keeps signing beside the new one. */
export const WEBHOOK_SECRET_OVERLAP_MS = 24 * 60 * 60 * 1000;

/** Endpoints a workspace may have. */
export const WEBHOOK_ENDPOINTS_MAX = 50;

/** A payload's `data` larger than this (as JSON) is sent as a link to the resource's read route instead. */
export const WEBHOOK_DATA_MAX_BYTES = 256 * 1024;

/**
 * The event types the service sends, each with its `data`: the resource as its read route shows it. The
 * catalogue grows as each type's act writes the outbox (docs/decisions/webhooks.md); an endpoint may
 * subscribe only to types listed here.
 */
/** A budget event's data: the fleet's budget as its read shows it, with the percent crossed and the spend that crossed it. */
const budgetCrossing = fleetBudget
  .extend({
    percent: z.number().int(),
    /** The spend the write that crossed saw: a running lease's usage counts before its report charges it. */
    crossed_at_spend_nanos: nanos("crossed_at_spend_nanos"),
  })
  .meta({ id: "WebhookBudgetCrossing" });

export const webhookEventCatalogue = {
  "gate.opened": {
    description: "An approval gate opened (a run's, or an integration grant's); data is the gate.",
    data: approvalGate,
  },
  "gate.decided": {
    description: "An approval gate was approved or denied (in the inbox, in chat, or by a grant's webhook).",
    data: approvalGate,
  },
  "gate.escalated": {
    description:
      "A pending approval gate reached its escalation time; its escalation approvers may now answer.",
    data: approvalGate,
  },
  "gate.timed_out": {
    description:
      "An approval gate closed without a decision: its deadline passed (status timed_out) or its fleet was stopped or killed (auto_killed).",
    data: approvalGate,
  },
  "grant.requested": {
    description:
      "A fleet asked for an integration grant, putting a new question to people (its gate opens with it); data is the grant.",
    data: integrationGrant,
  },
  "grant.decided": {
    description:
      "An integration grant was approved or revoked (in the inbox, by the grant webhook, or by a revoke); data is the grant.",
    data: integrationGrant,
  },
  "event.received": {
    description:
      "A fleet received a person's message (a chat event, stored for a runner to lease); data is the event as its read shows it.",
    data: fleetEventView,
  },
  "event.completed": {
    description: "A fleet event's run finished and was processed; data is the event as its read shows it.",
    data: fleetEventView,
  },
  "event.failed": {
    description: "A fleet event's run finished with a fleet error; data is the event as its read shows it.",
    data: fleetEventView,
  },
  "runner.offline": {
    description:
      "A runner that served a fleet went quiet: no heartbeat within the online window (90 s), found by a sweep within 15 s more. Sent for each fleet of the workspace it held a lease of in the 24 hours before it went quiet; data is the runner as that fleet sees it (never its host), with the fleet's leases it still held.",
    data: runnerOffline,
  },
  "schedule.sync_failed": {
    description:
      "A schedule's push to the scheduler failed after it was in line (retries of a row already failed send nothing more); data is the schedule, last_error included.",
    data: scheduleView,
  },
  "budget.threshold_crossed": {
    description:
      "A fleet's spend this period crossed one of its alert percents (once each a period); data is its budget, with the percent.",
    data: budgetCrossing,
  },
  "budget.exhausted": {
    description:
      "A fleet's spend this period reached its period budget (once a period, whatever its alert percents); data is its budget.",
    data: budgetCrossing,
  },
  "api_key.revoked": {
    description:
      "A tenant API key was revoked (by itself, or with its creator's removal); sent to every workspace of the tenant whose endpoint names no fleet. Data is the key as the key list shows it, never the key.",
    data: apiKeyItem,
  },
  "member.removed": {
    description:
      "A person was removed from the tenant; sent to every workspace of the tenant whose endpoint names no fleet. Data is the member as the member list showed them.",
    data: memberItem,
  },
} as const;

export type WebhookEventType = keyof typeof webhookEventCatalogue;
export const webhookEventTypes = Object.keys(webhookEventCatalogue) as [
  WebhookEventType,
  ...WebhookEventType[],
];

/** What `data` holds when the resource is over `WEBHOOK_DATA_MAX_BYTES`: where to read it. */
export const webhookDataLink = z
  .object({ truncated: z.literal(true), resource: z.string(), read_path: z.string() })
  .meta({ id: "WebhookDataLink" });

export const webhookUrl = z
  .string({ error: "url must be a string" })
  .min(1, { error: "url must not be empty" })
  .max(2048, { error: "url must be at most 2048 characters" });

export const webhookEventTypeList = z
  .array(
    z.enum(webhookEventTypes, { error: `event_types[] must be one of ${webhookEventTypes.join(", ")}` }),
    {
      error: "event_types must be an array of event types",
    },
  )
  .min(1, { error: "event_types must name at least one event type" })
  .max(webhookEventTypes.length, { error: "event_types names an event type twice" })
  .refine((types) => new Set(types).size === types.length, {
    error: "event_types names an event type twice",
  });

export const webhookDescription = z
  .string({ error: "description must be a string" })
  .trim()
  .max(1024, { error: "description must be at most 1024 characters" });

export const webhookEndpointParams = { ...workspaceParam, endpoint_id: uuidv7("endpoint_id") };

/** How an endpoint's receiver has been answering, from its attempts. */
export const webhookEndpointHealth = z
  .object({
    /** Attempts in the last 24 hours. */
    attempts_24h: z.number().int(),
    /** The share of them answered 2xx, from 0 to 1; null when there were none. */
    success_rate_24h: z.number().nullable(),
    /** The latest attempt that was no 2xx, ever: when, and why (`answered 503`, `timeout`, …). */
    last_failure: z.object({ at: epochMs, reason: z.string() }).nullable(),
  })
  .meta({ id: "WebhookEndpointHealth" });

/** An endpoint as reads show it: never its secret. */
export const webhookEndpointItem = z
  .object({
    id: z.string(),
    workspace_id: z.string(),
    url: z.string(),
    description: z.string(),
    event_types: z.array(z.enum(webhookEventTypes)),
    /** Only this fleet's events when set. */
    fleet_id: z.string().nullable(),
    enabled: z.boolean(),
    /**
     * Why the service disabled it: `gone` (the receiver answered 410) or `failing` (no 2xx for
     * `WEBHOOK_FAILING_DAYS` days); null otherwise.
     */
    disabled_reason: z.enum(["gone", "failing"]).nullable(),
    /** When the service disabled it (set exactly when `disabled_reason` is); null otherwise. */
    disabled_at: epochMs.nullable(),
    health: webhookEndpointHealth,
    /**
     * `approval_policy` for the workspace's notice endpoint: the approval policy's escalation URL, changed
     * through the policy only, its deliveries in the notice format (v0, signed with the workspace's notice
     * secret). Null for an endpoint made through this API.
     */
    managed_by: z.enum(["approval_policy"]).nullable(),
    /** When its signing secret was minted; null for the notice endpoint, which has none of its own. */
    secret_created_at: epochMs.nullable(),
    /** Until when the secret a rotation replaced still signs beside the new one; null when none does. */
    previous_secret_expires_at: epochMs.nullable(),
    created_by: z.string(),
    created_at: epochMs,
    updated_at: epochMs,
  })
  .meta({ id: "WebhookEndpoint" });
export type WebhookEndpointItem = z.infer<typeof webhookEndpointItem>;

/** An endpoint with its secret: the answer of a create or a rotation, the only times it is shown. */
export const webhookEndpointWithSecret = webhookEndpointItem
  .extend({ secret: z.string() })
  .meta({ id: "WebhookEndpointWithSecret" });

export const webhookFleetFilter = uuidv7("fleet_id").nullable();
