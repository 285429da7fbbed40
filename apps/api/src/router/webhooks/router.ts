import { resource } from "../../trpc.ts";
import { decideGrant } from "./decide-grant.ts";
import { getNoticeSecret } from "./get-notice-secret.ts";
import { getWebhookSecret } from "./get-webhook-secret.ts";
import { rotateNoticeSecret } from "./rotate-notice-secret.ts";
import { rotateWebhookSecret } from "./rotate-webhook-secret.ts";

export const webhooksRouter = resource(
  decideGrant,
  getNoticeSecret,
  getWebhookSecret,
  rotateNoticeSecret,
  rotateWebhookSecret,
);
