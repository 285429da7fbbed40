import { resource } from "../../trpc.ts";
import { decideGrant } from "./decide-grant.ts";
import { getWebhookSecret } from "./get-webhook-secret.ts";
import { rotateWebhookSecret } from "./rotate-webhook-secret.ts";

export const webhooksRouter = resource(decideGrant, getWebhookSecret, rotateWebhookSecret);
