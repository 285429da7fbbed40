import { listWebhookEventTypes as op } from "@fleet/contracts/webhook-endpoints/list-webhook-event-types";
import { listWebhookEventTypes as list } from "../../services/webhook-endpoints/list-webhook-event-types.ts";
import { procedure } from "../../trpc.ts";

export const listWebhookEventTypes = procedure(op).query(() => list());
